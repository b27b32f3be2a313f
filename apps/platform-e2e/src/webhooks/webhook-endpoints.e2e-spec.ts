import { singleError, withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sentAsIs } from '../support/sent-as-is';
import { describeStandardRefusals } from '../support/standard-refusals';
import { ENDPOINT, ENDPOINTS, ROTATIONS, SECRET_FORM, startWebhookPlatform, WebhookPlatform } from './webhook-platform';

const HOUR_MS = 3_600_000;
const GRACE_HOURS = 6;

/** The endpoints API (docs/webhooks.md, Endpoints and their secrets), through the typed client. */
describe('webhook endpoints', () => {
  let h: WebhookPlatform;

  beforeAll(async () => {
    h = await startWebhookPlatform({ WEBHOOK_SECRET_ROTATION_GRACE_HOURS: String(GRACE_HOURS), WEBHOOK_ENDPOINTS_PER_TENANT: '1000' });
  });
  afterAll(() => h.close());

  const services = () => h.platform.api.services;
  const create = (body: Record<string, unknown>, authorization = h.owner.authorization, tenantID = h.tenantID) =>
    services().POST(ENDPOINTS, { params: { path: { tenantID } }, headers: { authorization }, ...sentAsIs(body) });
  const read = (webhookEndpointID: string, authorization = h.owner.authorization, tenantID = h.tenantID) =>
    services().GET(ENDPOINT, { params: { path: { tenantID, webhookEndpointID } }, headers: { authorization } });
  const list = (query: { page?: string; perPage?: string } = {}, authorization = h.owner.authorization, tenantID = h.tenantID) =>
    services().GET(ENDPOINTS, { params: { path: { tenantID }, query }, headers: { authorization } });
  const update = (webhookEndpointID: string, body: Record<string, unknown>, authorization = h.owner.authorization, tenantID = h.tenantID) =>
    services().PATCH(ENDPOINT, { params: { path: { tenantID, webhookEndpointID } }, headers: { authorization }, ...sentAsIs(body) });
  const remove = (webhookEndpointID: string, authorization = h.owner.authorization, tenantID = h.tenantID) =>
    services().DELETE(ENDPOINT, { params: { path: { tenantID, webhookEndpointID } }, headers: { authorization } });
  const rotate = (webhookEndpointID: string, authorization = h.owner.authorization, tenantID = h.tenantID) =>
    services().POST(ROTATIONS, { params: { path: { tenantID, webhookEndpointID } }, headers: { authorization } });

  /** A created endpoint's id and secret. */
  const created = async (body: Record<string, unknown> = {}, tenantID = h.tenantID, authorization = h.owner.authorization) => {
    const answer = await create({ url: 'https://hooks.example.com/platform', eventTypes: ['member.removed'], ...body }, authorization, tenantID);
    expect(answer.response.status).toBe(201);
    return answer.data!.data;
  };
  /** What the database holds of an endpoint's secrets. */
  const stored = async (webhookEndpointID: string): Promise<{ secret: string; previous_secret: string | null }> => {
    const [row] = await h.platform.dataSource.query('SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1', [webhookEndpointID]);
    return row;
  };
  const auditOf = async (webhookEndpointID: string) =>
    (
      await h.platform.dataSource.query(
        `SELECT action, actor_id AS "actorID", summary FROM audit_events WHERE target_kind = 'webhookEndpoint' AND target_id = $1 ORDER BY occurred_at, id`,
        [webhookEndpointID],
      )
    ).map((event: { action: string; actorID: string; summary: Record<string, unknown> }) => event);

  describe('create, read, list, change, delete', () => {
    it('creates an endpoint (201) with its signing secret, defaults and an audit record', async () => {
      const answer = await create({ url: 'https://hooks.example.com/platform?source=a', eventTypes: ['member.removed', 'member.roleChanged'], description: 'CRM sync' });
      expect(answer.response.status).toBe(201);
      const endpoint = answer.data!.data;
      expect(endpoint).toEqual({
        webhookEndpointID: expect.any(String),
        url: 'https://hooks.example.com/platform?source=a',
        description: 'CRM sync',
        eventTypes: ['member.removed', 'member.roleChanged'],
        enabled: true,
        disabledAt: null,
        disabledReason: null,
        failingSince: null,
        previousSecretExpiresAt: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        secret: expect.stringMatching(SECRET_FORM),
      });
      expect(await auditOf(endpoint.webhookEndpointID)).toEqual([
        {
          action: 'webhookEndpoint.created',
          actorID: h.owner.operatorID,
          summary: { urlOrigin: 'https://hooks.example.com', eventTypes: ['member.removed', 'member.roleChanged'], enabled: true },
        },
      ]);
    });

    it('takes enabled: false and no description', async () => {
      const endpoint = await created({ enabled: false });
      expect(endpoint).toMatchObject({ enabled: false, description: '', disabledAt: null });
    });

    it('reads and lists endpoints without any secret', async () => {
      const endpoint = await created();
      const readAnswer = await read(endpoint.webhookEndpointID);
      expect(readAnswer.response.status).toBe(200);
      const { secret, ...withoutSecret } = endpoint;
      expect(secret).toMatch(SECRET_FORM);
      expect(readAnswer.data!.data).toEqual(withoutSecret);

      const listed = await list({ perPage: '200' });
      expect(listed.response.status).toBe(200);
      expect(listed.data!.data).toContainEqual(withoutSecret);
      expect(JSON.stringify(listed.data)).not.toContain('whsec_');
      expect(JSON.stringify(listed.data)).not.toContain('"secret"');
    });

    it('pages the list like every list: oldest first, 206 while more pages exist, then 200', async () => {
      const { tenantID, owner } = await h.ownedTenant();
      const ids: string[] = [];
      for (let index = 0; index < 3; index += 1) ids.push((await created({ description: `n${index}` }, tenantID, owner.authorization)).webhookEndpointID);

      const first = await list({ perPage: '2' }, owner.authorization, tenantID);
      expect(first.response.status).toBe(206);
      expect(first.data!.meta).toEqual({ count: 2, currentPage: 1, hasMore: true, perPage: 2, totalCount: 3, totalPages: 2 });
      const second = await list({ perPage: '2', page: '2' }, owner.authorization, tenantID);
      expect(second.response.status).toBe(200);
      expect(second.data!.meta).toEqual({ count: 1, currentPage: 2, hasMore: false, perPage: 2, totalCount: 3, totalPages: 2 });
      expect([...first.data!.data, ...second.data!.data].map((endpoint) => endpoint.webhookEndpointID)).toEqual(ids);
      const past = await list({ perPage: '2', page: '9' }, owner.authorization, tenantID);
      expect(past.response.status).toBe(200);
      expect(past.data!.data).toEqual([]);
      expect(singleError((await list({ perPage: '201' }, owner.authorization, tenantID)).error)).toMatchObject({
        error_code: 1002,
        fields: [{ field: 'perPage', received: '201', allowed: 'integer 1-200' }],
      });
    });

    it('changes only the fields sent, and records which', async () => {
      const endpoint = await created({ description: 'before' });
      const answer = await update(endpoint.webhookEndpointID, { url: 'https://hooks.example.org/new', eventTypes: ['helpdeskDomain.added'] });
      expect(answer.response.status).toBe(200);
      expect(answer.data!.data).toMatchObject({ url: 'https://hooks.example.org/new', eventTypes: ['helpdeskDomain.added'], description: 'before', enabled: true });
      expect(Date.parse(answer.data!.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(endpoint.updatedAt));
      expect((await read(endpoint.webhookEndpointID)).data!.data).toEqual(answer.data!.data);

      const described = await update(endpoint.webhookEndpointID, { description: '' });
      expect(described.data!.data).toMatchObject({ description: '', url: 'https://hooks.example.org/new' });
      const unchanged = await update(endpoint.webhookEndpointID, {});
      expect(unchanged.response.status).toBe(200);
      expect(unchanged.data!.data).toEqual(described.data!.data);

      const actions = (await auditOf(endpoint.webhookEndpointID)).map((event: { action: string; summary: unknown }) => [event.action, event.summary]);
      expect(actions).toEqual([
        ['webhookEndpoint.created', expect.anything()],
        ['webhookEndpoint.updated', { changed: ['url', 'eventTypes'] }],
        ['webhookEndpoint.updated', { changed: ['description'] }],
      ]);
    });

    it('re-enabling an endpoint the platform disabled clears why and since when; disabling by hand sets none of them', async () => {
      const endpoint = await created();
      const disabledByHand = await update(endpoint.webhookEndpointID, { enabled: false });
      expect(disabledByHand.data!.data).toMatchObject({ enabled: false, disabledAt: null, disabledReason: null, failingSince: null });

      // As the delivery engine leaves an endpoint it gave up on.
      await h.platform.dataSource.query(
        `UPDATE webhook_endpoints SET enabled = false, failing_since = now() - interval '3 days', disabled_at = now(), disabled_reason = 'failing for 3 days' WHERE id = $1`,
        [endpoint.webhookEndpointID],
      );
      expect((await read(endpoint.webhookEndpointID)).data!.data).toMatchObject({
        enabled: false,
        disabledAt: expect.any(String),
        disabledReason: 'failing for 3 days',
        failingSince: expect.any(String),
      });
      const described = await update(endpoint.webhookEndpointID, { description: 'still off' });
      expect(described.data!.data).toMatchObject({ enabled: false, disabledReason: 'failing for 3 days' });

      const enabled = await update(endpoint.webhookEndpointID, { enabled: true });
      expect(enabled.data!.data).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null, failingSince: null });
    });

    it('keeps the run of failures of an endpoint that stays enabled', async () => {
      const endpoint = await created();
      await h.platform.dataSource.query(`UPDATE webhook_endpoints SET failing_since = now() - interval '1 hour' WHERE id = $1`, [endpoint.webhookEndpointID]);
      const answer = await update(endpoint.webhookEndpointID, { enabled: true });
      expect(answer.data!.data.failingSince).not.toBeNull();
    });

    it('deletes an endpoint (204) with its deliveries and their attempts, and records it', async () => {
      const endpoint = await created();
      const [{ id: deliveryID }] = await h.platform.dataSource.query(
        `INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id, event_type, payload, occurred_at)
         VALUES ($1, $2, gen_random_uuid(), 'member.removed', '{}'::jsonb, now()) RETURNING id`,
        [h.tenantID, endpoint.webhookEndpointID],
      );
      await h.platform.dataSource.query(`INSERT INTO webhook_delivery_attempts (delivery_id, duration_ms, status_code, succeeded) VALUES ($1, 12, 500, false)`, [
        deliveryID,
      ]);

      const answer = await remove(endpoint.webhookEndpointID);
      expect(answer.response.status).toBe(204);
      expect(await answer.response.text()).toBe('');
      const [{ deliveries, attempts }] = await h.platform.dataSource.query(
        `SELECT (SELECT count(*)::int FROM webhook_deliveries WHERE endpoint_id = $1) AS deliveries,
                (SELECT count(*)::int FROM webhook_delivery_attempts WHERE delivery_id = $2) AS attempts`,
        [endpoint.webhookEndpointID, deliveryID],
      );
      expect({ deliveries, attempts }).toEqual({ deliveries: 0, attempts: 0 });

      const gone = await read(endpoint.webhookEndpointID);
      expect(gone.response.status).toBe(404);
      expect(singleError(gone.error)).toEqual({ statusCode: 404, error: 'WebhookEndpointNotFoundError', error_code: 1960, message: 'Webhook endpoint not found.' });
      expect(singleError((await remove(endpoint.webhookEndpointID)).error).error_code).toBe(1960);
      expect((await auditOf(endpoint.webhookEndpointID)).map((event: { action: string }) => event.action)).toEqual([
        'webhookEndpoint.created',
        'webhookEndpoint.deleted',
      ]);
    });

    it('answers 404 1960 for an id the tenant does not have, on every operation', async () => {
      const unknown = '7a0f3c52-5a0e-4d8e-9d0b-2f6f3a1b9c11';
      expect(singleError((await read(unknown)).error).error_code).toBe(1960);
      expect(singleError((await update(unknown, { enabled: true })).error).error_code).toBe(1960);
      expect(singleError((await update(unknown, {})).error).error_code).toBe(1960);
      expect(singleError((await remove(unknown)).error).error_code).toBe(1960);
      expect(singleError((await rotate(unknown)).error).error_code).toBe(1960);
    });
  });

  describe('the signing secret', () => {
    it('is stored sealed: the database holds neither the secret nor anything that opens without the key', async () => {
      const endpoint = await created();
      const row = await stored(endpoint.webhookEndpointID);
      expect(row.secret).not.toBe(endpoint.secret);
      expect(row.secret).not.toContain(endpoint.secret.slice('whsec_'.length, 20));
      expect(row.secret).toMatch(/^v1\./);
      expect(h.secrets.open(endpoint.webhookEndpointID, row.secret)).toBe(endpoint.secret);
      expect(row.previous_secret).toBeNull();
    });

    it('rotates (201): a new secret shown once, the previous one still signing for the grace period, both sealed', async () => {
      const endpoint = await created();
      const before = Date.now();
      const answer = await rotate(endpoint.webhookEndpointID);
      expect(answer.response.status).toBe(201);
      const rotated = answer.data!.data;
      expect(rotated.secret).toMatch(SECRET_FORM);
      expect(rotated.secret).not.toBe(endpoint.secret);
      const expiresAt = Date.parse(rotated.previousSecretExpiresAt!);
      expect(expiresAt).toBeGreaterThanOrEqual(before + GRACE_HOURS * HOUR_MS - 1000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + GRACE_HOURS * HOUR_MS + 1000);

      const row = await stored(endpoint.webhookEndpointID);
      expect(h.secrets.open(endpoint.webhookEndpointID, row.secret)).toBe(rotated.secret);
      expect(h.secrets.open(endpoint.webhookEndpointID, row.previous_secret!)).toBe(endpoint.secret);
      expect([row.secret, row.previous_secret]).not.toContain(rotated.secret);

      const { secret: _secret, ...shown } = rotated;
      expect((await read(endpoint.webhookEndpointID)).data!.data).toEqual(shown);
      expect(JSON.stringify((await read(endpoint.webhookEndpointID)).data)).not.toContain('whsec_');

      const events = await auditOf(endpoint.webhookEndpointID);
      expect(events.at(-1)).toEqual({
        action: 'webhookEndpoint.secretRotated',
        actorID: h.owner.operatorID,
        summary: { previousValidUntil: rotated.previousSecretExpiresAt },
      });
      expect(JSON.stringify(events)).not.toContain('whsec_');
    });

    it('keeps two secrets at most: a second rotation retires the oldest at once', async () => {
      const endpoint = await created();
      const first = (await rotate(endpoint.webhookEndpointID)).data!.data;
      const second = (await rotate(endpoint.webhookEndpointID)).data!.data;
      const row = await stored(endpoint.webhookEndpointID);
      expect(h.secrets.open(endpoint.webhookEndpointID, row.secret)).toBe(second.secret);
      expect(h.secrets.open(endpoint.webhookEndpointID, row.previous_secret!)).toBe(first.secret);
    });
  });

  describe('who may', () => {
    it("finds nothing of this tenant's for an owner of another tenant in their own (404 1960)", async () => {
      const endpoint = await created();
      const outsider = h.outsider.authorization;
      const throughOwnTenant = await read(endpoint.webhookEndpointID, outsider, h.otherTenantID);
      expect(throughOwnTenant.response.status).toBe(404);
      expect(singleError(throughOwnTenant.error).error_code).toBe(1960);
      expect(singleError((await update(endpoint.webhookEndpointID, { enabled: false }, outsider, h.otherTenantID)).error).error_code).toBe(1960);
      expect(singleError((await rotate(endpoint.webhookEndpointID, outsider, h.otherTenantID)).error).error_code).toBe(1960);
      expect(singleError((await remove(endpoint.webhookEndpointID, outsider, h.otherTenantID)).error).error_code).toBe(1960);
      expect((await read(endpoint.webhookEndpointID)).response.status).toBe(200);
    });

    /** The endpoint every refusal aims at: none may read, change, rotate or delete it. */
    let refusedTarget: Promise<{ webhookEndpointID: string }> | undefined;
    const target = () => (refusedTarget ??= created());
    /** The tenant's endpoints as stored, secrets included, the target made first: a refusal changes none. */
    const storedEndpoints = async (): Promise<unknown[]> => {
      await target();
      return h.platform.dataSource.query('SELECT * FROM webhook_endpoints WHERE tenant_id = $1 ORDER BY id', [h.tenantID]);
    };
    const operations = [
      { method: 'POST', path: ENDPOINTS, body: () => ({ url: 'https://hooks.example.com/', eventTypes: ['member.removed'] }) },
      { method: 'GET', path: ENDPOINTS },
      { method: 'GET', path: ENDPOINT },
      { method: 'PATCH', path: ENDPOINT, body: () => ({ enabled: false }) },
      { method: 'DELETE', path: ENDPOINT },
      { method: 'POST', path: ROTATIONS },
    ] as const;
    for (const operation of operations) {
      describeStandardRefusals({
        ...operation,
        client: services,
        tenantID: () => h.tenantID,
        pathParams: operation.path === ENDPOINTS ? undefined : async () => ({ webhookEndpointID: (await target()).webhookEndpointID }),
        valid: () => h.owner.authorization,
        outsider: () => h.outsider.authorization,
        wrongRole: () => h.member.authorization,
        // Endpoints are for operators: a plugin's credentials are refused as none.
        invalid: async () => [(await h.platform.fixtures.plugin()).authorization],
        written: storedEndpoints,
      });
    }
  });

  describe('a database failure', () => {
    it('is 500 5999 without internals, on a read and on a create', async () => {
      const endpoint = await created();
      await withTableMissing(h.platform.dataSource, 'webhook_endpoints', async () => {
        for (const answer of [await read(endpoint.webhookEndpointID), await list(), await create({ url: 'https://hooks.example.com/', eventTypes: ['member.removed'] })]) {
          expect(answer.response.status).toBe(500);
          expect(singleError(answer.error)).toEqual({
            statusCode: 500,
            error: 'UnknownError',
            error_code: 5999,
            message: 'For some unknown reason your request has not succeeded.',
          });
          expect(JSON.stringify(answer.error)).not.toContain('webhook');
        }
      });
    });
  });

  describe('validation', () => {
    const refusedField = async (body: Record<string, unknown>) => {
      const answer = await create(body);
      expect(answer.response.status).toBe(400);
      const error = singleError(answer.error);
      expect(error.error_code).toBe(1002);
      return error.fields;
    };
    const valid = { url: 'https://hooks.example.com/', eventTypes: ['member.removed'] };

    it('refuses missing, empty, repeated and unknown event types, and the test event', async () => {
      for (const eventTypes of [undefined, [], ['member.removed', 'member.removed'], ['member.deleted'], ['webhook.test'], 'member.removed', [1]]) {
        const fields = await refusedField({ ...valid, eventTypes });
        expect(fields, JSON.stringify(eventTypes)).toEqual([
          expect.objectContaining({ field: 'eventTypes', allowed: expect.stringContaining('non-empty array of distinct event types') }),
        ]);
      }
    });

    it('refuses a description past 500 characters, a non-boolean enabled, null fields and unknown fields', async () => {
      expect(await refusedField({ ...valid, description: 'a'.repeat(501) })).toEqual([
        { field: 'description', received: expect.any(String), allowed: 'string of 0-500 characters' },
      ]);
      expect(await refusedField({ ...valid, enabled: 'yes' })).toEqual([{ field: 'enabled', received: 'yes', allowed: 'boolean' }]);
      expect(await refusedField({ ...valid, description: null })).toEqual([{ field: 'description', received: 'null', allowed: 'string of 0-500 characters' }]);
      expect(await refusedField({ ...valid, secret: 'whsec_mine' })).toEqual([{ field: 'secret', allowed: 'no such field' }]);
    });

    it('refuses the same in a change, null included, and a change of nothing that exists', async () => {
      const endpoint = await created();
      for (const [body, field] of [
        [{ eventTypes: [] }, 'eventTypes'],
        [{ url: null }, 'url'],
        [{ enabled: null }, 'enabled'],
        [{ url: 'hooks.example.com' }, 'url'],
        [{ secret: 'whsec_mine' }, 'secret'],
      ] as const) {
        const answer = await update(endpoint.webhookEndpointID, body);
        expect(answer.response.status, JSON.stringify(body)).toBe(400);
        expect(singleError(answer.error).fields).toEqual([expect.objectContaining({ field })]);
      }
      const badID = await read('not-a-uuid');
      expect(singleError(badID.error)).toMatchObject({ error_code: 1002, fields: [{ field: 'webhookEndpointID', received: 'not-a-uuid', allowed: 'uuid' }] });
    });
  });

  describe('URLs', () => {
    const SHAPE = 'absolute http or https URL of at most 2048 characters, without user name or password';
    const PUBLIC = 'URL whose host is a public address or a host name (loopback, private, link-local and other special ranges are refused)';
    const urlRefusal = async (url: unknown) => {
      const answer = await create({ url, eventTypes: ['member.removed'] });
      expect(answer.response.status, String(url)).toBe(400);
      const error = singleError(answer.error);
      expect(error.error_code).toBe(1002);
      expect(error.fields).toHaveLength(1);
      return error.fields![0];
    };

    it('refuses what is not an absolute http(s) URL, credentials in it, and a URL past 2048 characters, as 400 1002 on url', async () => {
      for (const url of ['hooks.example.com/in', '/in', 'ftp://hooks.example.com/', 'https://user:pass@hooks.example.com/', 'https://token@hooks.example.com/']) {
        expect(await urlRefusal(url)).toEqual({ field: 'url', received: url, allowed: SHAPE });
      }
      expect(await urlRefusal(`https://hooks.example.com/${'a'.repeat(2048)}`)).toMatchObject({ field: 'url', allowed: SHAPE });
      expect(await urlRefusal(undefined)).toMatchObject({ field: 'url', allowed: SHAPE });
    });

    it('refuses a literal address that is not public, and localhost, as 400 1002 on url; nothing is stored', async () => {
      const { tenantID, owner } = await h.ownedTenant();
      for (const url of ['http://10.0.0.8/hooks', 'https://169.254.169.254/latest/meta-data', 'https://[::1]:8443/', 'https://[::ffff:10.0.0.1]/', 'http://localhost:4000/', 'http://[::127.0.0.1]:4000/', 'http://[::a9fe:a9fe]/', 'https://[::10.0.0.1]/']) {
        const answer = await create({ url, eventTypes: ['member.removed'] }, owner.authorization, tenantID);
        expect(answer.response.status, url).toBe(400);
        expect(singleError(answer.error).fields).toEqual([{ field: 'url', received: url, allowed: PUBLIC }]);
      }
      expect((await list({}, owner.authorization, tenantID)).data!.meta.totalCount).toBe(0);
    });

    it('refuses such a URL in a change too, and leaves the endpoint as it was', async () => {
      const endpoint = await created();
      const answer = await update(endpoint.webhookEndpointID, { url: 'http://192.168.1.10/', description: 'moved' });
      expect(singleError(answer.error).fields).toEqual([{ field: 'url', received: 'http://192.168.1.10/', allowed: PUBLIC }]);
      expect((await read(endpoint.webhookEndpointID)).data!.data).toMatchObject({ url: endpoint.url, description: endpoint.description });
    });

    it('takes a public address, a host name and an address OUTBOUND_ALLOW allows (the suite allows 127.0.0.1)', async () => {
      for (const url of ['http://8.8.8.8/hooks', 'http://hooks.example.com:8080/in', 'http://127.0.0.1:4000/hooks']) {
        expect((await create({ url, eventTypes: ['member.removed'] })).response.status, url).toBe(201);
      }
    });
  });
});
