import { singleError, withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectReplayOf, postJson } from '../idempotency/idempotency-support';
import { eventually } from '../support/eventually';
import { ENDPOINT, ENDPOINTS, ROTATIONS, SECRET_FORM, startWebhookPlatform, WebhookPlatform } from './webhook-platform';

const LIMIT = 3;

/** The per-tenant bound under concurrent creates, and creates and rotations retried under an Idempotency-Key. */
describe('webhook endpoints: the per-tenant bound and retries', () => {
  let h: WebhookPlatform;

  beforeAll(async () => {
    h = await startWebhookPlatform({ WEBHOOK_ENDPOINTS_PER_TENANT: String(LIMIT) });
  });
  afterAll(() => h.close());

  const create = (tenantID: string, authorization: string, url = 'https://hooks.example.com/in') =>
    h.platform.api.services.POST(ENDPOINTS, { params: { path: { tenantID } }, headers: { authorization }, body: { url, eventTypes: ['member.removed'] } });
  const countOf = async (tenantID: string) =>
    (await h.platform.dataSource.query('SELECT count(*)::int AS count FROM webhook_endpoints WHERE tenant_id = $1', [tenantID]))[0].count as number;
  /** Waits until `count` sessions of the app wait for a lock (advisory locks included). */
  const waitForLockWaiters = (count: number) =>
    eventually(async () => {
      const [{ waiting }] = await h.platform.dataSource.query(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      expect(waiting, 'sessions waiting for a lock').toBeGreaterThanOrEqual(count);
    }, undefined, 20);

  describe('endpoints per tenant', () => {
    it(`answers 409 1961 past WEBHOOK_ENDPOINTS_PER_TENANT (${LIMIT}); a deletion frees a place; other tenants are not counted`, async () => {
      const { tenantID, owner } = await h.ownedTenant();
      const ids: string[] = [];
      for (let index = 0; index < LIMIT; index += 1) {
        const answer = await create(tenantID, owner.authorization);
        expect(answer.response.status).toBe(201);
        ids.push(answer.data!.data.webhookEndpointID);
      }
      const refused = await create(tenantID, owner.authorization);
      expect(refused.response.status).toBe(409);
      expect(singleError(refused.error)).toEqual({
        statusCode: 409,
        error: 'WebhookEndpointLimitReachedError',
        error_code: 1961,
        message: 'This tenant has as many webhook endpoints as it may have. Delete one before adding another.',
      });
      expect(await countOf(tenantID)).toBe(LIMIT);
      const [{ audited }] = await h.platform.dataSource.query(
        `SELECT count(*)::int AS audited FROM audit_events WHERE tenant_id = $1 AND action = 'webhookEndpoint.created'`,
        [tenantID],
      );
      expect(audited).toBe(LIMIT);

      const other = await h.ownedTenant();
      expect((await create(other.tenantID, other.owner.authorization)).response.status).toBe(201);

      const deleted = await h.platform.api.services.DELETE(ENDPOINT, {
        params: { path: { tenantID, webhookEndpointID: ids[0] } },
        headers: { authorization: owner.authorization },
      });
      expect(deleted.response.status).toBe(204);
      expect((await create(tenantID, owner.authorization)).response.status).toBe(201);
    });

    it('lets exactly one of many simultaneous creates take the last place', async () => {
      const { tenantID, owner } = await h.ownedTenant();
      for (let index = 0; index < LIMIT - 1; index += 1) expect((await create(tenantID, owner.authorization)).response.status).toBe(201);
      // As many as the app's pool has connections (DATABASE_POOL_SIZE 5 in tests), so all can wait at once.
      const contenders = 5;

      // Inserts wait behind the test's lock until every create has reached the database, so all of them
      // would count at once when it is released: without the tenant's lock each would count LIMIT - 1.
      const blocker = h.platform.dataSource.createQueryRunner();
      await blocker.connect();
      await blocker.startTransaction();
      let answers;
      try {
        await blocker.query('LOCK TABLE webhook_endpoints IN SHARE ROW EXCLUSIVE MODE');
        const pending = Promise.all(Array.from({ length: contenders }, (_, index) => create(tenantID, owner.authorization, `https://hooks.example.com/${index}`)));
        await waitForLockWaiters(contenders);
        await blocker.commitTransaction();
        answers = await pending;
      } finally {
        if (blocker.isTransactionActive) await blocker.rollbackTransaction();
        await blocker.release();
      }

      const outcomes = answers.map((answer) => (answer.response.ok ? 201 : singleError(answer.error).error_code));
      expect(outcomes.filter((outcome) => outcome === 201)).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 1961)).toHaveLength(contenders - 1);
      expect(await countOf(tenantID)).toBe(LIMIT);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays a create byte for byte, its one secret included, and creates one endpoint; other parameters under the key are 422 1980', async () => {
      const { tenantID, owner } = await h.ownedTenant();
      const url = `${h.platform.servicesUrl}/v1/tenants/${tenantID}/webhooks/endpoints`;
      const body = { url: 'https://hooks.example.com/once', eventTypes: ['member.removed'] };
      const first = await postJson(url, owner.authorization, 'create-endpoint-1', body);
      expect(first.status).toBe(201);
      expect(first.json.data.secret).toMatch(SECRET_FORM);
      const replay = await postJson(url, owner.authorization, 'create-endpoint-1', body);
      expectReplayOf(first, replay);
      expect(await countOf(tenantID)).toBe(1);

      const reused = await postJson(url, owner.authorization, 'create-endpoint-1', { ...body, description: 'another' });
      expect(reused.status).toBe(422);
      expect(reused.json.errors[0].error_code).toBe(1980);
      expect(await countOf(tenantID)).toBe(1);
    });

    it('replays a refusal the create raised itself (409 1961) and checks access again before any replay', async () => {
      const { tenantID, owner } = await h.ownedTenant();
      for (let index = 0; index < LIMIT; index += 1) await create(tenantID, owner.authorization);
      const url = `${h.platform.servicesUrl}/v1/tenants/${tenantID}/webhooks/endpoints`;
      const body = { url: 'https://hooks.example.com/full', eventTypes: ['member.removed'] };
      const first = await postJson(url, owner.authorization, 'create-when-full', body);
      expect(first.status).toBe(409);
      expectReplayOf(first, await postJson(url, owner.authorization, 'create-when-full', body));

      const member = await h.platform.fixtures.operator();
      await h.platform.fixtures.membership(tenantID, member.operatorID, 'member');
      const byMember = await postJson(url, `Bearer ${await h.platform.tokenFor(member.operatorID)}`, 'create-when-full', body);
      expect(byMember.status).toBe(403);
    });

    it('keeps no answer of a create that failed in the database (500): the retry under the same key runs again', async () => {
      const { tenantID, owner } = await h.ownedTenant();
      const url = `${h.platform.servicesUrl}/v1/tenants/${tenantID}/webhooks/endpoints`;
      const body = { url: 'https://hooks.example.com/retry', eventTypes: ['member.removed'] };
      const failed = await withTableMissing(h.platform.dataSource, 'webhook_endpoints', () => postJson(url, owner.authorization, 'create-after-failure', body));
      expect(failed.status).toBe(500);
      const retried = await postJson(url, owner.authorization, 'create-after-failure', body);
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
      expect(await countOf(tenantID)).toBe(1);
    });

    it('replays a rotation: a retried rotation whose answer was lost gets that secret, and rotates once', async () => {
      const { tenantID, owner } = await h.ownedTenant();
      const endpoint = (await create(tenantID, owner.authorization)).data!.data;
      const rotate = (key: string) =>
        h.platform.api.services.POST(ROTATIONS, {
          params: { path: { tenantID, webhookEndpointID: endpoint.webhookEndpointID } },
          headers: { authorization: owner.authorization, 'idempotency-key': key },
        });
      const first = await rotate('rotate-1');
      const replay = await rotate('rotate-1');
      expect(first.response.status).toBe(201);
      expect(replay.response.status).toBe(201);
      expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.data!.data.secret).toBe(first.data!.data.secret);
      const [row] = await h.platform.dataSource.query('SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1', [endpoint.webhookEndpointID]);
      expect(h.secrets.open(endpoint.webhookEndpointID, row.secret)).toBe(first.data!.data.secret);
      expect(h.secrets.open(endpoint.webhookEndpointID, row.previous_secret)).toBe(endpoint.secret);
      const [{ rotations }] = await h.platform.dataSource.query(
        `SELECT count(*)::int AS rotations FROM audit_events WHERE target_id = $1 AND action = 'webhookEndpoint.secretRotated'`,
        [endpoint.webhookEndpointID],
      );
      expect(rotations).toBe(1);
    });
  });
});
