import { trustedTenantScope } from '@platform/auth';
import { createTestDataSource, FixtureBuilder, WebhookFixtures } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NewWebhookEndpoint, WebhookEndpointsRepository } from './webhook-endpoints.repository';

/**
 * Webhook endpoints' SQL against PostgreSQL: the create within the tenant's
 * limit (race-free), the camelCase row without secrets, the list's order and
 * pages, partial updates and what re-enabling clears, the secret rotation,
 * the delivery engine's state (the run of failures, disabling, the overfull
 * endpoints), and tenant scoping of each.
 */
describe('WebhookEndpointsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let endpoints: WebhookEndpointsRepository;
  let webhooks: WebhookFixtures;
  let fixtures: FixtureBuilder;
  let tenantID: string;
  let otherTenantID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(4));
    endpoints = new WebhookEndpointsRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
    webhooks = new WebhookFixtures(dataSource, (_endpointID, secret) => `sealed:${secret}`);
    otherTenantID = await fixtures.tenant();
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    tenantID = await fixtures.tenant();
  });

  const scope = (tenant = tenantID) => trustedTenantScope(tenant);
  const newEndpoint = (overrides: Partial<NewWebhookEndpoint> = {}): NewWebhookEndpoint => ({
    id: randomUUID(),
    url: `https://hooks.example.com/${randomUUID()}`,
    description: '',
    eventTypes: ['member.removed'],
    enabled: true,
    sealedSecret: 'sealed:current',
    ...overrides,
  });
  const create = (endpoint = newEndpoint(), limit = 10, tenant = tenantID) =>
    endpoints.transaction((runner) => endpoints.insertWithinLimit(runner, scope(tenant), endpoint, limit));
  const secretsOf = async (id: string) =>
    ((await dataSource.query('SELECT secret, previous_secret AS "previousSecret" FROM webhook_endpoints WHERE id = $1', [id])) as object[])[0];

  it('creates an endpoint and answers it as a camelCase row without its secret', async () => {
    const endpoint = newEndpoint({ description: 'CRM', eventTypes: ['member.removed', 'invitation.accepted'] });
    const created = await create(endpoint);

    expect(created).toEqual({
      webhookEndpointID: endpoint.id,
      url: endpoint.url,
      description: 'CRM',
      eventTypes: ['member.removed', 'invitation.accepted'],
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
      previousSecretExpiresAt: null,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(await endpoints.byID(scope(), endpoint.id)).toEqual(created);
    expect(await endpoints.byID(scope(otherTenantID), endpoint.id)).toBeUndefined();
    expect(await secretsOf(endpoint.id)).toEqual({ secret: 'sealed:current', previousSecret: null });
  });

  it("creates only within the tenant's limit, other tenants' endpoints aside, however many creates race", async () => {
    await create(newEndpoint(), 10, otherTenantID);
    expect(await create(newEndpoint(), 1)).toBeDefined();
    expect(await create(newEndpoint(), 1)).toBeUndefined();

    const racing = await Promise.all([create(newEndpoint(), 3), create(newEndpoint(), 3), create(newEndpoint(), 3)]);
    expect(racing.filter((created) => created !== undefined)).toHaveLength(2);
    expect(await endpoints.count(scope())).toBe(3);
    expect(await endpoints.count(scope(otherTenantID))).toBe(1);
  });

  it('lists oldest first, the id ordering one instant, in pages', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push((await create())!.webhookEndpointID);
    await dataSource.query(`UPDATE webhook_endpoints SET created_at = '2026-03-02T12:00:00Z' WHERE id = ANY($1::uuid[])`, [ids.slice(1, 3)]);
    await dataSource.query(`UPDATE webhook_endpoints SET created_at = '2026-03-01T12:00:00Z' WHERE id = $1`, [ids[3]]);
    const order = [ids[3], ...ids.slice(1, 3).sort(), ids[0]];
    const idsOf = (found: { webhookEndpointID: string }[]) => found.map((endpoint) => endpoint.webhookEndpointID);

    expect(idsOf(await endpoints.page(scope(), { offset: 0, limit: 10 }))).toEqual(order);
    expect(idsOf(await endpoints.page(scope(), { offset: 1, limit: 2 }))).toEqual(order.slice(1, 3));
    expect(await endpoints.page(scope(), { offset: 4, limit: 2 })).toEqual([]);
    expect(idsOf(await endpoints.page(scope(otherTenantID), { offset: 0, limit: 10 }))).not.toContain(ids[0]);
  });

  it('updates the fields given only; re-enabling a disabled endpoint clears why and since when it failed', async () => {
    const { webhookEndpointID } = (await create(newEndpoint({ description: 'CRM' })))!;
    const update = (changes: Parameters<WebhookEndpointsRepository['update']>[3], tenant = tenantID) =>
      endpoints.transaction((runner) => endpoints.update(runner, scope(tenant), webhookEndpointID, changes));

    expect(await update({ eventTypes: ['invitation.sent'] })).toMatchObject({ description: 'CRM', eventTypes: ['invitation.sent'], enabled: true });
    await webhooks.failingSince(webhookEndpointID, new Date('2026-03-01T00:00:00Z'));
    expect(await update({ enabled: true })).toMatchObject({ failingSince: new Date('2026-03-01T00:00:00Z') });
    await endpoints.transaction((runner) => endpoints.disable(runner, scope(), webhookEndpointID, 'failing for 72 hours'));
    expect(await endpoints.byID(scope(), webhookEndpointID)).toMatchObject({ enabled: false, disabledReason: 'failing for 72 hours', disabledAt: expect.any(Date) });
    expect(await update({ description: 'still off' })).toMatchObject({ enabled: false, disabledReason: 'failing for 72 hours' });
    expect(await update({ enabled: true })).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null, failingSince: null, description: 'still off' });
    expect(await update({ url: 'https://elsewhere.example.com/' }, otherTenantID)).toBeUndefined();
    expect(await update({ url: 'https://elsewhere.example.com/' })).toMatchObject({ url: 'https://elsewhere.example.com/' });
  });

  it('rotates the secret, keeping the current one as the previous with a grace, dropping it without', async () => {
    const { webhookEndpointID } = (await create())!;
    const rotate = (sealed: string, until: Date | null, tenant = tenantID) =>
      endpoints.transaction((runner) => endpoints.rotateSecret(runner, scope(tenant), webhookEndpointID, sealed, until));
    const until = new Date('2026-03-03T12:00:00.000Z');

    expect(await rotate('sealed:second', until)).toMatchObject({ previousSecretExpiresAt: until });
    expect(await secretsOf(webhookEndpointID)).toEqual({ secret: 'sealed:second', previousSecret: 'sealed:current' });
    expect(await rotate('sealed:third', until)).toBeDefined();
    expect(await secretsOf(webhookEndpointID)).toEqual({ secret: 'sealed:third', previousSecret: 'sealed:second' });
    expect(await rotate('sealed:fourth', null)).toMatchObject({ previousSecretExpiresAt: null });
    expect(await secretsOf(webhookEndpointID)).toEqual({ secret: 'sealed:fourth', previousSecret: null });
    expect(await rotate('sealed:other', null, otherTenantID)).toBeUndefined();
  });

  it('keeps the run of failures from its first failure until a success, overdue once it lasted the hours given', async () => {
    const { webhookEndpointID } = (await create())!;
    const failed = (hours: number) => endpoints.transaction((runner) => endpoints.deliveryFailed(runner, scope(), webhookEndpointID, hours));

    const first = await failed(72);
    expect(first).toEqual({ failingSince: expect.any(Date), overdue: false });
    expect((await failed(72))!.failingSince).toEqual(first!.failingSince);
    await webhooks.failingSince(webhookEndpointID, new Date(Date.now() - 73 * 3600_000));
    expect(await failed(72)).toMatchObject({ overdue: true });
    await endpoints.transaction((runner) => endpoints.deliverySucceeded(runner, scope(), webhookEndpointID));
    expect(await endpoints.byID(scope(), webhookEndpointID)).toMatchObject({ failingSince: null });
    expect(await endpoints.transaction((runner) => endpoints.deliveryFailed(runner, scope(otherTenantID), webhookEndpointID, 72))).toBeUndefined();
  });

  it('disables the enabled endpoints subscribed to the type that hold the pending deliveries given, and no other', async () => {
    const full = (await create(newEndpoint({ eventTypes: ['member.removed'] })))!.webhookEndpointID;
    const almost = (await create(newEndpoint({ eventTypes: ['member.removed'] })))!.webhookEndpointID;
    const otherType = (await create(newEndpoint({ eventTypes: ['invitation.sent'] })))!.webhookEndpointID;
    const pending = (endpointID: string, count: number, status = 'pending') =>
      dataSource.query(
        `INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id, event_type, payload, occurred_at, status)
         SELECT $1, $2, gen_random_uuid(), 'member.removed', '{}'::jsonb, now(), $4 FROM generate_series(1, $3)`,
        [tenantID, endpointID, count, status],
      );
    await pending(full, 3);
    await pending(almost, 2);
    await pending(almost, 5, 'succeeded');
    await pending(otherType, 3);
    const disable = (tenant = tenantID) => endpoints.transaction((runner) => endpoints.disableOverfull(runner, scope(tenant), 'member.removed', 3, '3 deliveries pending'));

    expect(await disable(otherTenantID)).toEqual([]);
    expect(await disable()).toEqual([full]);
    expect(await endpoints.byID(scope(), full)).toMatchObject({ enabled: false, disabledReason: '3 deliveries pending' });
    expect(await endpoints.byID(scope(), almost)).toMatchObject({ enabled: true });
    expect(await endpoints.byID(scope(), otherType)).toMatchObject({ enabled: true });
    expect(await disable()).toEqual([]);
  });

  it('deletes an endpoint of the tenant, answering its URL', async () => {
    const created = (await create())!;
    const remove = (tenant = tenantID) => endpoints.transaction((runner) => endpoints.delete(runner, scope(tenant), created.webhookEndpointID));

    expect(await remove(otherTenantID)).toBeUndefined();
    expect(await remove()).toEqual({ url: created.url });
    expect(await remove()).toBeUndefined();
    expect(await endpoints.count(scope())).toBe(0);
  });
});
