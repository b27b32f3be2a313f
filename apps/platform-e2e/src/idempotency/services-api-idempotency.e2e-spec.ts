import { createServicesApiApp, ServicesApiConfig } from '@apps/services-api';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/config';
import { fingerprintOf, IdempotencySweeper } from '@platform/idempotency';
import { CampaignFixtures, MessagingChannelFixture, WhatsAppTemplateStub } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';
import { expectReplayOf, postJson } from './idempotency-support';
import { modelBody } from '../campaigns/campaign-platform';

/**
 * Idempotency-Key on the services API's creates (docs/idempotency.md), over
 * two replicas of services-api sharing one PostgreSQL: the platform's own and
 * a second one started here, restarted in one test.
 */
describe('Idempotency-Key (services-api)', () => {
  let platform: TestPlatform;
  let stub: WhatsAppTemplateStub;
  let replica: NestFastifyApplication;
  let replicaUrl: string;
  let tenantID: string;
  let otherTenantID: string;
  let channel: MessagingChannelFixture;
  let owner: { operatorID: string; authorization: string };
  let member: { operatorID: string; authorization: string };
  let outsider: { operatorID: string; authorization: string };

  const startReplica = async () => {
    replica = await createServicesApiApp(loadConfig(ServicesApiConfig, platform.env));
    await replica.listen(0, '127.0.0.1');
    replicaUrl = (await replica.getUrl()).replace('[::1]', '127.0.0.1');
  };
  const modelsPath = (tenant = tenantID) => `/v1/tenants/${tenant}/campaigns-models`;
  const connectionsPath = (tenant = tenantID) => `/v1/tenants/${tenant}/plugins/connections`;
  const createModel = (key: string | undefined, body: unknown, who = owner, base = platform.servicesUrl, tenant = tenantID) =>
    postJson(`${base}${modelsPath(tenant)}`, who.authorization, key, body);
  const install = (key: string | undefined, pluginID: string, base = platform.servicesUrl, who = owner) =>
    postJson(`${base}${connectionsPath()}`, who.authorization, key, { pluginID });
  const count = async (text: string, parameters: unknown[]) => Number(((await platform.dataSource.query(text, parameters)) as { n: string }[])[0].n);
  const modelsNamed = (name: string) => count('SELECT count(*) AS n FROM campaign_models WHERE tenant_id = $1 AND name LIKE $2', [tenantID, `${name}%`]);
  const connectionsOf = (pluginID: string) => count('SELECT count(*) AS n FROM plugin_connections WHERE plugin_id = $1', [pluginID]);
  const keyRow = async (key: string) =>
    ((await platform.dataSource.query(`SELECT * FROM idempotency_keys WHERE key = $1`, [key])) as Record<string, unknown>[])[0];

  beforeAll(async () => {
    stub = await WhatsAppTemplateStub.start();
    platform = await startPlatform({
      apps: ['core-tenants', 'services-api'],
      env: { WHATSAPP_API_BASE_URL: stub.baseUrl, WHATSAPP_ACCESS_TOKEN: 'test-system-user-token', WHATSAPP_TIMEOUT_MS: '5000' },
    });
    await startReplica();
    tenantID = await platform.fixtures.tenant();
    otherTenantID = await platform.fixtures.tenant();
    const operator = async (tenant: string, role: 'owner' | 'member') => {
      const { operatorID } = await platform.fixtures.operator();
      await platform.fixtures.membership(tenant, operatorID, role);
      return { operatorID, authorization: `Bearer ${await platform.tokenFor(operatorID)}` };
    };
    owner = await operator(tenantID, 'owner');
    member = await operator(tenantID, 'member');
    outsider = await operator(otherTenantID, 'owner');
    channel = await new CampaignFixtures(platform.dataSource).messagingChannel(tenantID);
  });
  afterAll(async () => {
    await replica?.close();
    await platform?.close();
    await stub?.close();
  });
  beforeEach(() => {
    stub.reset();
    platform.billing.failWithStatus = undefined;
  });

  describe('campaign models (operation 2)', () => {
    it('creates one model for a retried create; the retry gets the first answer, marked as a replay', async () => {
      const key = randomUUID();
      const body = modelBody(channel.channelID, { campaignModelName: 'Retried notice' });
      const first = await createModel(key, body);
      expect(first.status).toBe(200);
      const again = await createModel(key, body);
      const onReplica = await createModel(key, body, owner, replicaUrl);

      expectReplayOf(first, again);
      expectReplayOf(first, onReplica);
      expect(await modelsNamed('retried_notice')).toBe(1);
      expect(stub.createRequests()).toHaveLength(1);
      // Without a key the same body is a new request, as before: a second model.
      expect((await createModel(undefined, body)).json.campaignModel.campaignModelName).toBe('retried_notice_2');
    });

    it('refuses the key with other parameters: 422 1980, nothing created', async () => {
      const key = randomUUID();
      expect((await createModel(key, modelBody(channel.channelID, { campaignModelName: 'First body' }))).status).toBe(200);
      const reused = await createModel(key, modelBody(channel.channelID, { campaignModelName: 'Second body' }));
      expect(reused.status).toBe(422);
      expect(reused.json).toEqual({
        errors: [
          {
            statusCode: 422,
            error: 'IdempotencyKeyReusedError',
            error_code: 1980,
            message: 'This Idempotency-Key was already used with other parameters. Use a new key for a new request.',
          },
        ],
      });
      expect(await modelsNamed('second_body')).toBe(0);
    });

    it('counts the same fields in another order as the same request', async () => {
      const key = randomUUID();
      const body = modelBody(channel.channelID, { campaignModelName: 'Field order' });
      const first = await createModel(key, body);
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      expectReplayOf(first, await createModel(key, reordered));
    });

    it('keeps keys apart per operator and per tenant, and checks access before the key', async () => {
      const key = randomUUID();
      const body = modelBody(channel.channelID, { campaignModelName: 'Per caller' });
      expect((await createModel(key, body)).status).toBe(200);
      // Another member of the tenant with the same key: their own request, not the owner's answer.
      const byMember = await createModel(key, body, member);
      expect(byMember.status).toBe(200);
      expect(byMember.headers.get('idempotent-replayed')).toBeNull();
      expect(await modelsNamed('per_caller')).toBe(2);
      // Someone without access to the tenant gets 403, never the stored answer.
      const stranger = await createModel(key, body, outsider);
      expect(stranger.status).toBe(403);
      expect(stranger.json.errors[0].error_code).toBe(1004);
    });

    it('validates the key like any input: 400 1002 naming idempotency-key', async () => {
      const body = modelBody(channel.channelID, { campaignModelName: 'Bad keys' });
      for (const key of ['', 'k'.repeat(256), 'chave-sem-acentuação'.normalize('NFC'), 'tab\there']) {
        const answer = await createModel(key, body);
        expect(answer.status, JSON.stringify(key)).toBe(400);
        expect(answer.json.errors[0]).toMatchObject({ error_code: 1002, fields: [{ field: 'idempotency-key', allowed: '1-255 printable ASCII characters' }] });
      }
      expect((await createModel('k'.repeat(255), body)).status).toBe(200);
      expect(await modelsNamed('bad_keys')).toBe(1);
    });

    it('answers 409 1981 while a request that holds the key runs, and lets a retry run once the lease of a dead one lapsed', async () => {
      const key = randomUUID();
      const body = modelBody(channel.channelID, { campaignModelName: 'Crashed first' });
      const fingerprint = fingerprintOf({ method: 'POST', route: '/v1/tenants/:tenantID/campaigns-models', params: { tenantID }, body });
      // What a replica that died mid-request leaves: a claim whose lease runs for a while yet.
      await platform.dataSource.query(
        `INSERT INTO idempotency_keys (app, principal, tenant_id, key, fingerprint, state, lease_token, lease_expires_at, created_at, expires_at)
         VALUES ('services-api', $1, $2, $3, $4, 'executing', gen_random_uuid(), now() + interval '1 minute', now(), now() + interval '1 day')`,
        [`operator:${owner.operatorID}`, tenantID, key, fingerprint],
      );
      const busy = await createModel(key, body);
      expect(busy.status).toBe(409);
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(busy.json.errors[0]).toMatchObject({ error: 'IdempotencyRequestInProgressError', error_code: 1981 });
      expect(await modelsNamed('crashed_first')).toBe(0);

      await platform.dataSource.query(`UPDATE idempotency_keys SET lease_expires_at = now() - interval '1 second' WHERE key = $1`, [key]);
      const retried = await createModel(key, body, owner, replicaUrl);
      expect(retried.status).toBe(200);
      expectReplayOf(retried, await createModel(key, body));
      expect(await modelsNamed('crashed_first')).toBe(1);
    });

    it('forgets a key past its retention: the request runs again, and the sweep deletes expired keys', async () => {
      const key = randomUUID();
      const body = modelBody(channel.channelID, { campaignModelName: 'Expiring' });
      expect((await createModel(key, body)).status).toBe(200);
      expect(await keyRow(key)).toMatchObject({ state: 'completed', response_status: 200 });
      const { created_at: createdAt, expires_at: expiresAt } = (await keyRow(key)) as { created_at: Date; expires_at: Date };
      expect(expiresAt.getTime() - createdAt.getTime()).toBe(86_400_000);

      await platform.dataSource.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`, [key]);
      const afterExpiry = await createModel(key, body);
      expect(afterExpiry.status).toBe(200);
      expect(afterExpiry.headers.get('idempotent-replayed')).toBeNull();
      expect(await modelsNamed('expiring')).toBe(2);

      await platform.dataSource.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`, [key]);
      expect(await replica.get(IdempotencySweeper).sweep()).toBeGreaterThanOrEqual(1);
      expect(await keyRow(key)).toBeUndefined();
    });
  });

  describe('plugin installs', () => {
    it('installs once for a retried install; the replay carries the same connection and token', async () => {
      const plugin = await platform.fixtures.plugin({ kind: 'paid' });
      const key = randomUUID();
      const first = await install(key, plugin.pluginID);
      expect(first.status).toBe(201);
      expectReplayOf(first, await install(key, plugin.pluginID, replicaUrl));
      expect(await connectionsOf(plugin.pluginID)).toBe(1);
      expect(platform.billing.items.size).toBeGreaterThan(0);
      // A new key is a new install: the plugin is installed already.
      expect((await install(randomUUID(), plugin.pluginID)).json.errors[0].error_code).toBe(1950);
    });

    it('replays a client error (409 1950) and does not keep a provider failure (502 5002)', async () => {
      const installed = await platform.fixtures.plugin();
      expect((await install(undefined, installed.pluginID)).status).toBe(201);
      const key = randomUUID();
      const refused = await install(key, installed.pluginID);
      expect(refused.status).toBe(409);
      expectReplayOf(refused, await install(key, installed.pluginID));

      const paid = await platform.fixtures.plugin({ kind: 'paid' });
      const retriedKey = randomUUID();
      platform.billing.failWithStatus = 500;
      expect((await install(retriedKey, paid.pluginID)).status).toBe(502);
      expect(await keyRow(retriedKey)).toBeUndefined();
      platform.billing.failWithStatus = undefined;
      const afterRecovery = await install(retriedKey, paid.pluginID);
      expect(afterRecovery.status).toBe(201);
      expect(afterRecovery.headers.get('idempotent-replayed')).toBeNull();
      expect(await connectionsOf(paid.pluginID)).toBe(1);
    });

    it('runs concurrent duplicates on two replicas once: the other gets 409 1981, then the replay', async () => {
      const plugin = await platform.fixtures.plugin({ kind: 'hosted' });
      const key = randomUUID();
      const vmCreates = () => platform.vms.calls.filter((call) => call.method === 'POST').length;
      const vmCreatesBefore = vmCreates();
      const held = platform.vms.hold();
      let first: Promise<Awaited<ReturnType<typeof install>>> | undefined;
      try {
        first = install(key, plugin.pluginID);
        await held.reached(1);
        const duplicate = await install(key, plugin.pluginID, replicaUrl);
        expect(duplicate.status).toBe(409);
        expect(duplicate.json.errors[0].error_code).toBe(1981);
        expect(duplicate.headers.get('retry-after')).toBe('1');
      } finally {
        held.release();
      }
      const answered = await first!;
      expect(answered.status).toBe(201);
      expectReplayOf(answered, await install(key, plugin.pluginID, replicaUrl));
      expect(await connectionsOf(plugin.pluginID)).toBe(1);
      expect(vmCreates()).toBe(vmCreatesBefore + 1);
    });

    it('replays after the replica that answered restarts', async () => {
      const plugin = await platform.fixtures.plugin();
      const key = randomUUID();
      const first = await install(key, plugin.pluginID, replicaUrl);
      expect(first.status).toBe(201);
      await replica.close();
      await startReplica();
      expectReplayOf(first, await install(key, plugin.pluginID, replicaUrl));
      expect(await connectionsOf(plugin.pluginID)).toBe(1);
    });
  });
});
