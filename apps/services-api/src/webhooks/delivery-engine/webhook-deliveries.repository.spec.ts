import { createTestDataSource, FixtureBuilder, WebhookFixtures } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/**
 * The delivery engine's SQL against the migrated schema in PostgreSQL: the
 * fan-out, and the claim that is the one definition of "due" (ordering per
 * subject, one attempt in flight per endpoint, the lease, retries). The
 * claim looks at every delivery of the database, so each test starts from
 * none.
 */
describe('WebhookDeliveriesRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let deliveries: WebhookDeliveriesRepository;
  let fixtures: FixtureBuilder;
  let webhooks: WebhookFixtures;
  let tenantID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(8));
    deliveries = new WebhookDeliveriesRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
    // The repository hands the sealed secret on as stored; sealing is not its job.
    webhooks = new WebhookFixtures(dataSource, (_endpointID, secret) => `sealed:${secret}`);
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    await dataSource.query('DELETE FROM webhook_deliveries');
    tenantID = await fixtures.tenant();
  });

  const endpoint = (options: { eventTypes?: string[]; enabled?: boolean; tenant?: string } = {}) =>
    webhooks.endpoint(options.tenant ?? tenantID, { url: `https://hooks.example.com/${randomUUID()}`, eventTypes: options.eventTypes, enabled: options.enabled });

  /** Fans one event of `type` out in the tenant; answers its id and how many deliveries it made. */
  const fanOut = async (options: { type?: string; orderingKey?: string | null; occurredAt?: string; tenant?: string } = {}) => {
    const eventID = randomUUID();
    const type = options.type ?? 'member.removed';
    const made = await deliveries.transaction((runner) =>
      deliveries.fanOut(runner, {
        tenantID: options.tenant ?? tenantID,
        eventID,
        type,
        orderingKey: options.orderingKey ?? null,
        payload: { type, timestamp: '2026-11-28T12:00:00.000Z', data: { operatorID: eventID } },
        occurredAt: options.occurredAt ?? new Date().toISOString(),
        headers: { 'x-request-id': `req-${eventID}` },
      }),
    );
    return { eventID, made };
  };

  const statusOf = async (eventID: string) =>
    ((await dataSource.query('SELECT status, attempt_count AS "attemptCount" FROM webhook_deliveries WHERE event_id = $1', [eventID])) as { status: string; attemptCount: number }[])[0];

  it("fans an event out to the tenant's enabled endpoints subscribed to its type, and to no other; a repeat adds nothing", async () => {
    const subscribed = await endpoint();
    await endpoint({ eventTypes: ['helpdeskDomain.added'] });
    await endpoint({ enabled: false });
    await endpoint({ tenant: await fixtures.tenant() });
    const eventID = randomUUID();
    const event = { tenantID, eventID, type: 'member.removed', orderingKey: null, payload: { type: 'member.removed' }, occurredAt: new Date().toISOString(), headers: null };
    expect(await deliveries.transaction((runner) => deliveries.fanOut(runner, event))).toBe(1);
    expect(await deliveries.transaction((runner) => deliveries.fanOut(runner, event))).toBe(0);
    const rows = (await dataSource.query('SELECT endpoint_id AS "endpointID", status FROM webhook_deliveries WHERE event_id = $1', [eventID])) as object[];
    expect(rows).toEqual([{ endpointID: subscribed.webhookEndpointID, status: 'pending' }]);
  });

  it('claims the most overdue delivery with what its attempt sends, leased, and nothing more of that endpoint while it is in flight', async () => {
    const target = await endpoint();
    const first = await fanOut();
    await fanOut();
    const { found, claimed } = await deliveries.claimDue(30);
    expect(found).toBe(true);
    expect(claimed).toEqual({
      webhookDeliveryID: expect.any(String),
      tenantID,
      endpointID: target.webhookEndpointID,
      eventID: first.eventID,
      payload: { type: 'member.removed', timestamp: '2026-11-28T12:00:00.000Z', data: { operatorID: first.eventID } },
      attemptCount: 0,
      url: expect.stringMatching(/^https:\/\/hooks\.example\.com\//),
      secret: `sealed:${target.secret}`,
      previousSecret: null,
      headers: { 'x-request-id': `req-${first.eventID}` },
    });
    expect(await deliveries.claimDue(30)).toEqual({ found: false });
  });

  it("claims another endpoint's delivery while one endpoint has an attempt in flight", async () => {
    const busy = await endpoint();
    await fanOut();
    const { claimed: inFlight } = await deliveries.claimDue(30);
    const other = await endpoint({ eventTypes: ['helpdeskDomain.added'] });
    await fanOut({ type: 'helpdeskDomain.added' });
    const { claimed } = await deliveries.claimDue(30);
    expect([inFlight?.endpointID, claimed?.endpointID]).toEqual([busy.webhookEndpointID, other.webhookEndpointID]);
  });

  it('gives the previous secret only while its grace period lasts', async () => {
    const rotated = await webhooks.endpoint(tenantID, { url: 'https://hooks.example.com/rotated', previousSecret: { secret: 'whsec_old', expiresAt: new Date(Date.now() + 3_600_000) } });
    await fanOut();
    expect((await deliveries.claimDue(30)).claimed).toMatchObject({ secret: `sealed:${rotated.secret}`, previousSecret: 'sealed:whsec_old' });
    await dataSource.query('DELETE FROM webhook_deliveries');
    await dataSource.query(`UPDATE webhook_endpoints SET previous_secret_expires_at = clock_timestamp() - interval '1 second' WHERE id = $1`, [rotated.webhookEndpointID]);
    await fanOut();
    expect((await deliveries.claimDue(30)).claimed).toMatchObject({ previousSecret: null });
  });

  it('holds a delivery of a subject behind the older pending one of the same subject, also while that one waits for its retry', async () => {
    await endpoint();
    // Fanned out first but occurred a microsecond later: the order is when events occurred, not when they were fanned out.
    const later = await fanOut({ orderingKey: 'member:1', occurredAt: '2026-11-28T12:00:00.000002Z' });
    const older = await fanOut({ orderingKey: 'member:1', occurredAt: '2026-11-28T12:00:00.000001Z' });
    const { claimed } = await deliveries.claimDue(30);
    expect(claimed?.eventID).toBe(older.eventID);
    await deliveries.transaction((runner) => deliveries.fail(runner, claimed!.webhookDeliveryID, 500, 'answered 500', 60_000));
    expect(await deliveries.claimDue(30)).toEqual({ found: false });
    await deliveries.transaction((runner) => deliveries.succeed(runner, claimed!.webhookDeliveryID, 200));
    expect((await deliveries.claimDue(30)).claimed?.eventID).toBe(later.eventID);
  });

  it('does not hold deliveries of different subjects behind one another, beyond the one attempt per endpoint', async () => {
    await endpoint();
    const first = await fanOut({ orderingKey: 'member:1' });
    const second = await fanOut({ orderingKey: 'member:2' });
    const { claimed } = await deliveries.claimDue(30);
    await deliveries.transaction((runner) => deliveries.fail(runner, claimed!.webhookDeliveryID, null, 'unreachable', 60_000));
    expect([claimed?.eventID, (await deliveries.claimDue(30)).claimed?.eventID]).toEqual([first.eventID, second.eventID]);
  });

  it('claims a delivery again once its lease lapsed (its attempt died), with the same event', async () => {
    await endpoint();
    const event = await fanOut();
    expect((await deliveries.claimDue(0)).claimed?.eventID).toBe(event.eventID);
    expect((await deliveries.claimDue(30)).claimed?.eventID).toBe(event.eventID);
  });

  it('records a failure with its retry time, a failure with no retry left as failed, and a success, none of them claimable again now', async () => {
    await endpoint();
    const retried = await fanOut({ orderingKey: 'member:1' });
    const given = await fanOut({ orderingKey: 'member:2' });
    const delivered = await fanOut({ orderingKey: 'member:3' });
    for (const expected of [retried, given, delivered]) {
      const { claimed } = await deliveries.claimDue(30);
      expect(claimed?.eventID).toBe(expected.eventID);
      await deliveries.transaction(async (runner) => {
        await deliveries.recordAttempt(runner, claimed!.webhookDeliveryID, { durationMs: 12, statusCode: 500, error: 'answered 500', succeeded: false });
        if (expected === retried) expect(await deliveries.fail(runner, claimed!.webhookDeliveryID, 500, 'answered 500', 60_000)).toBeInstanceOf(Date);
        if (expected === given) expect(await deliveries.fail(runner, claimed!.webhookDeliveryID, 500, 'answered 500', undefined)).toBeUndefined();
        if (expected === delivered) await deliveries.succeed(runner, claimed!.webhookDeliveryID, 204);
      });
    }
    expect(await deliveries.claimDue(30)).toEqual({ found: false });
    expect([await statusOf(retried.eventID), await statusOf(given.eventID), await statusOf(delivered.eventID)]).toEqual([
      { status: 'pending', attemptCount: 1 },
      { status: 'failed', attemptCount: 1 },
      { status: 'succeeded', attemptCount: 1 },
    ]);
    expect(await deliveries.pendingReading()).toEqual({ pending: 1, oldestDueSeconds: 0 });
  });

  it('attempts nothing of a disabled endpoint, and keeps its deliveries pending', async () => {
    const target = await endpoint();
    const event = await fanOut();
    await dataSource.query('UPDATE webhook_endpoints SET enabled = false WHERE id = $1', [target.webhookEndpointID]);
    expect(await deliveries.claimDue(30)).toEqual({ found: false });
    expect(await statusOf(event.eventID)).toEqual({ status: 'pending', attemptCount: 0 });
  });

  it('lets exactly one of many simultaneous claims take an endpoint', async () => {
    await endpoint();
    for (let index = 0; index < 5; index += 1) await fanOut();
    const claims = await Promise.all(Array.from({ length: 6 }, () => deliveries.claimDue(30)));
    expect(claims.filter((claim) => claim.claimed)).toHaveLength(1);
  });

  it('deletes deliveries created before the cutoff, a bounded batch at a time', async () => {
    await endpoint();
    for (let index = 0; index < 3; index += 1) await fanOut();
    expect(await deliveries.deleteCreatedBefore(new Date(Date.now() - 60_000), 10)).toBe(0);
    expect(await deliveries.deleteCreatedBefore(new Date(Date.now() + 60_000), 2)).toBe(2);
    expect(await deliveries.deleteCreatedBefore(new Date(Date.now() + 60_000), 2)).toBe(1);
  });
});
