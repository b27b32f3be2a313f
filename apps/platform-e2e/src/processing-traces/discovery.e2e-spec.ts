import { randomUUID } from 'node:crypto';
import { IssueTraceTokens } from '@platform/contracts';
import { AppException } from '@platform/errors';
import { singleError, withTableMissing } from '@platform/testing';
import { TransportClient } from '@platform/transport';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';
import { at, InstalledProvider, installTraceProvider, traceScene } from './trace-providers';
import { describeStandardRefusals } from '../support/standard-refusals';

const SESSION_NOT_FOUND = { statusCode: 404, error: 'SessionNotFoundError', error_code: 1060, message: 'Session not found.' };

describe('GET /v1/tenants/:tenantID/sessions/:sessionID/processing-traces (operation 9)', () => {
  let platform: TestPlatform;
  let scene: Awaited<ReturnType<typeof traceScene>>;
  const stubs: InstalledProvider[] = [];
  const base = Date.parse('2026-11-20T13:00:00.000Z');

  const discover = (authorization: string, sessionID = scene.sessionID, tenantID = scene.tenantID) =>
    platform.api.services.GET('/v1/tenants/{tenantID}/sessions/{sessionID}/processing-traces', { params: { path: { tenantID, sessionID } }, headers: { authorization } });

  /** A fresh tenant scene with its own providers, so each test sees exactly the providers it installs. */
  const freshScene = async () => traceScene(platform);
  const provider = async (tenantID: string, options: Parameters<typeof installTraceProvider>[2] = {}) => {
    const installed = await installTraceProvider(platform, tenantID, options);
    stubs.push(installed);
    return installed;
  };

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants', 'services-api'], env: { TRACE_PROVIDER_TIMEOUT_MS: '5000' } });
    scene = await traceScene(platform);
  });
  afterAll(async () => {
    for (const installed of stubs) await installed.stub.stop();
    await platform.close();
  });

  it('condenses every provider\'s traces per message, in the session\'s message order, with every provider in sources', async () => {
    const local = await freshScene();
    const [m1, m2, m3] = local.messageIDs;
    const intent = await provider(local.tenantID, { name: 'Classificador de intenção', urn: `urn:plugin:intent:${randomUUID()}`, iconUrl: 'https://cdn.example/intent.png' });
    const crm = await provider(local.tenantID, { name: 'Enriquecimento CRM', urn: `urn:plugin:crm:${randomUUID()}` });
    intent.traces.sessionTraceRef = 'session-at-intent';
    intent.traces
      .add({ sessionID: local.sessionID, messageID: m1, messageFingerprint: 'sha256:m1', traceRef: 'i-1', startedAt: at(base, 0), durationMs: 100, status: 'succeeded', stepCount: 2 })
      .add({ sessionID: local.sessionID, messageID: m3, messageFingerprint: 'sha256:m3', traceRef: 'i-3', startedAt: at(base, 5_000), durationMs: 40, status: 'running', stepCount: 1 })
      // Another session's trace: not listed for this session at all.
      .add({ sessionID: local.otherSessionID, messageID: randomUUID(), messageFingerprint: '', traceRef: 'i-x', startedAt: at(base, 0), durationMs: 1, status: 'succeeded', stepCount: 1 });
    crm.traces
      .add({ sessionID: local.sessionID, messageID: m1, messageFingerprint: 'sha256:m1-crm', traceRef: 'c-1', startedAt: at(base, 50), durationMs: 200, status: 'failed', stepCount: 3 })
      .add({ sessionID: local.sessionID, messageID: m2.toUpperCase(), messageFingerprint: 'sha256:m2', traceRef: 'c-2', startedAt: at(base, 2_000), durationMs: 10, status: 'stopped', stepCount: 0 })
      // A message of no session of this tenant, and a message of another session: dropped.
      .add({ sessionID: local.sessionID, messageID: randomUUID(), messageFingerprint: 'x', traceRef: 'c-stray', startedAt: at(base, 0), durationMs: 1, status: 'succeeded', stepCount: 1 })
      .add({ sessionID: local.sessionID, messageID: scene.messageIDs[0], messageFingerprint: 'x', traceRef: 'c-foreign', startedAt: at(base, 0), durationMs: 1, status: 'succeeded', stepCount: 1 });

    const response = await discover(local.memberToken, local.sessionID, local.tenantID);
    expect(response.response.status).toBe(200);
    const sources = [
      { source: intent.urn, name: intent.name, status: 'ready', traceRef: 'session-at-intent' },
      { source: crm.urn, name: crm.name, status: 'ready', traceRef: '' },
    ].sort((left, right) => (left.source < right.source ? -1 : 1));
    expect(response.data!).toEqual({
      messages: [
        {
          messageID: m1,
          messageFingerprint: 'sha256:m1',
          startedAt: at(base, 0),
          durationMs: 250,
          status: 'failed',
          stepCount: 5,
          traces: [
            { source: intent.urn, traceRef: 'i-1' },
            { source: crm.urn, traceRef: 'c-1' },
          ],
        },
        { messageID: m2, messageFingerprint: 'sha256:m2', startedAt: at(base, 2_000), durationMs: 10, status: 'stopped', stepCount: 0, traces: [{ source: crm.urn, traceRef: 'c-2' }] },
        { messageID: m3, messageFingerprint: 'sha256:m3', startedAt: at(base, 5_000), durationMs: 40, status: 'running', stepCount: 1, traces: [{ source: intent.urn, traceRef: 'i-3' }] },
      ],
      sources,
      version: 1,
    });
  });

  it('combines statuses: running, else failed, else stopped, else succeeded; ties in start break by source', async () => {
    const local = await freshScene();
    const [m1, m2, m3] = local.messageIDs;
    const a = await provider(local.tenantID, { urn: `urn:plugin:a:${randomUUID()}` });
    const b = await provider(local.tenantID, { urn: `urn:plugin:b:${randomUUID()}` });
    const trace = (messageID: string, traceRef: string, status: string, offset = 0) => ({
      sessionID: local.sessionID, messageID, messageFingerprint: '', traceRef, startedAt: at(base, offset), durationMs: 10, status, stepCount: 1,
    });
    a.traces.add(trace(m1, 'a1', 'succeeded')).add(trace(m2, 'a2', 'stopped')).add(trace(m3, 'a3', 'succeeded'));
    b.traces.add(trace(m1, 'b1', 'running')).add(trace(m2, 'b2', 'succeeded')).add(trace(m3, 'b3', 'succeeded'));
    const response = await discover(local.ownerToken, local.sessionID, local.tenantID);
    expect(response.data!.messages.map((message: { status: string }) => message.status)).toEqual(['running', 'stopped', 'succeeded']);
    expect(response.data!.messages[0].traces).toEqual([{ source: a.urn, traceRef: 'a1' }, { source: b.urn, traceRef: 'b1' }]);
    expect(response.data!.messages[0].messageFingerprint).toBe('');
  });

  it('asks only providers installed on the tenant: no trace endpoint, removed connection or another tenant\'s are left out', async () => {
    const local = await freshScene();
    const installed = await provider(local.tenantID);
    const removed = await provider(local.tenantID);
    await platform.dataSource.query(`UPDATE plugin_connections SET status = 'removed', removed_at = now() WHERE plugin_id = $1`, [removed.pluginID]);
    const elsewhere = await installTraceProvider(platform, local.otherTenantID);
    stubs.push(elsewhere);
    const plain = await platform.fixtures.plugin();
    await platform.fixtures.connection(local.tenantID, plain.pluginID);

    const response = await discover(local.ownerToken, local.sessionID, local.tenantID);
    expect(response.response.status).toBe(200);
    expect(response.data!.sources.map((source: { source: string }) => source.source)).toEqual([installed.urn]);
    expect(removed.stub.calls).toHaveLength(0);
    expect(elsewhere.stub.calls).toHaveLength(0);
  });

  it('answers empty lists when no provider is installed', async () => {
    const local = await freshScene();
    const response = await discover(local.ownerToken, local.sessionID, local.tenantID);
    expect(response.response.status).toBe(200);
    expect(response.data!).toEqual({ messages: [], sources: [], version: 1 });
  });

  it('reports a provider that times out, answers 500, malformed JSON or garbage, or is unreachable, and still answers the rest', async () => {
    const local = await freshScene();
    const healthy = await provider(local.tenantID, { urn: `urn:plugin:0-healthy:${randomUUID()}` });
    healthy.traces.add({
      sessionID: local.sessionID, messageID: local.messageIDs[0], messageFingerprint: 'f', traceRef: 'h-1', startedAt: at(base, 0), durationMs: 5, status: 'succeeded', stepCount: 1,
    });
    const faults = [
      ['1-hang', 'hang'],
      ['2-status500', 'status500'],
      ['3-malformed', 'malformed'],
      ['4-garbage', 'garbage'],
    ] as const;
    const failing: Record<string, InstalledProvider> = {};
    for (const [name, fault] of faults) {
      failing[name] = await provider(local.tenantID, { urn: `urn:plugin:${name}:${randomUUID()}` });
      failing[name].stub.fault = fault;
    }
    const down = await provider(local.tenantID, { urn: `urn:plugin:5-down:${randomUUID()}` });
    await down.stub.stop();
    // A 404 means "nothing about this session": an answer, not a failure.
    const unaware = await provider(local.tenantID, { urn: `urn:plugin:6-unaware:${randomUUID()}`, prefix: '/elsewhere' });
    await platform.dataSource.query('UPDATE plugins SET trace_endpoint_url = $2 WHERE id = $1', [unaware.pluginID, unaware.stub.url.replace('/elsewhere', '/nothing-here')]);

    const response = await discover(local.ownerToken, local.sessionID, local.tenantID);
    expect(response.response.status).toBe(200);
    expect(response.data!.messages).toEqual([
      { messageID: local.messageIDs[0], messageFingerprint: 'f', startedAt: at(base, 0), durationMs: 5, status: 'succeeded', stepCount: 1, traces: [{ source: healthy.urn, traceRef: 'h-1' }] },
    ]);
    expect(response.data!.sources.map((source: { status: string }) => source.status)).toEqual([
      'ready',
      'timeout',
      'error',
      'invalid_response',
      'invalid_response',
      'unreachable',
      'ready',
    ]);
    expect(failing['1-hang'].stub.calls).toHaveLength(1);
  });

  it('calls the providers in parallel: each of three providers answers only once all three have been called', async () => {
    const local = await freshScene();
    const gated: InstalledProvider[] = [];
    for (let index = 0; index < 3; index += 1) {
      const installed = await provider(local.tenantID);
      installed.traces.add({
        sessionID: local.sessionID, messageID: local.messageIDs[index], messageFingerprint: '', traceRef: `g-${index}`, startedAt: at(base, index), durationMs: 1, status: 'succeeded', stepCount: 1,
      });
      gated.push(installed);
    }
    // Credentials are fetched once and cached: the gated request is about the providers only.
    await discover(local.ownerToken, local.sessionID, local.tenantID);
    // No provider answers before all three have been called: called one after another, the
    // first would wait past the time limit (1 s here) and be reported unreachable. No clock is
    // read, so a busy machine cannot fail this test; only calls made one at a time can.
    let called = 0;
    let openGate = () => undefined as void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    for (const installed of gated) {
      installed.stub.verify = async () => {
        called += 1;
        if (called === gated.length) openGate();
        await gate;
      };
    }

    const response = await discover(local.ownerToken, local.sessionID, local.tenantID);
    expect(response.response.status).toBe(200);
    expect(response.data!.sources.map((source: { status: string }) => source.status)).toEqual(['ready', 'ready', 'ready']);
    expect(response.data!.messages).toHaveLength(3);
  });

  it('sends each provider a credential that verifies against the JWKS and names the tenant, the session and the plugin', async () => {
    const local = await freshScene();
    const first = await provider(local.tenantID);
    const second = await provider(local.tenantID);
    await discover(local.ownerToken, local.sessionID, local.tenantID);
    const jwks = createRemoteJWKSet(new URL(`${platform.coreUrl}/.well-known/jwks.json`));
    for (const installed of [first, second]) {
      const [call] = installed.stub.calls;
      expect(call.path).toBe(`/platform-traces/tenants/${local.tenantID}/sessions/${local.sessionID}/traces`);
      const token = call.authorization!.replace(/^Bearer /, '');
      const { payload } = await jwtVerify(token, jwks, { issuer: 'core-tenants', audience: installed.urn, algorithms: ['EdDSA'], typ: 'trace-provider+jwt' });
      expect(payload).toMatchObject({ sub: local.tenantID, tenantID: local.tenantID, sessionID: local.sessionID, pluginID: installed.pluginID, scope: 'processing-traces:read' });
      expect(payload.exp! - payload.iat!).toBe(300);
      expect(decodeProtectedHeader(token).kid).toBeTruthy();
      // Meant for that plugin only: it is not an operator token.
      const replayed = await discover(`Bearer ${token}`, local.sessionID, local.tenantID);
      expect(replayed.response.status).toBe(401);
    }
    // Another plugin's audience does not verify.
    const token = first.stub.calls[0].authorization!.replace(/^Bearer /, '');
    await expect(jwtVerify(token, jwks, { audience: second.urn })).rejects.toThrow();

    // The credential is reused until shortly before it expires: the next discovery sends the same one.
    await discover(local.ownerToken, local.sessionID, local.tenantID);
    expect(first.stub.calls[1].authorization).toBe(first.stub.calls[0].authorization);
    // Another session gets its own.
    const otherSession = await local.conversations.session(local.tenantID, { contactID: local.contactID, inboxID: local.inboxID });
    await discover(local.ownerToken, otherSession, local.tenantID);
    const { payload } = await jwtVerify(first.stub.calls[2].authorization!.replace(/^Bearer /, ''), jwks, { audience: first.urn });
    expect(payload.sessionID).toBe(otherSession);
  });

  it('core-tenants signs credentials (trace-tokens.issue) only for trace providers with a live connection on the tenant', async () => {
    const local = await freshScene();
    const installed = await provider(local.tenantID);
    const removed = await provider(local.tenantID);
    await platform.dataSource.query(`UPDATE plugin_connections SET status = 'removed', removed_at = now() WHERE plugin_id = $1`, [removed.pluginID]);
    const elsewhere = await installTraceProvider(platform, local.otherTenantID);
    stubs.push(elsewhere);
    const plain = await platform.fixtures.plugin();
    await platform.fixtures.connection(local.tenantID, plain.pluginID);

    const client = platform.apps['services-api']!.get(TransportClient);
    const reply = await client.send(IssueTraceTokens, {
      tenantID: local.tenantID,
      sessionID: local.sessionID,
      pluginIDs: [installed.pluginID, removed.pluginID, elsewhere.pluginID, plain.pluginID, randomUUID()],
    });
    expect(reply.tokens.map((issued) => issued.pluginID)).toEqual([installed.pluginID]);
    expect(reply.tokens[0].expiresInSeconds).toBe(300);
    const refused = await client.send(IssueTraceTokens, { tenantID: local.tenantID, sessionID: local.sessionID, pluginIDs: [] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppException);
    expect((refused as AppException).toBody().error_code).toBe(1002);
  });

  describeStandardRefusals({
    method: 'GET',
    path: '/v1/tenants/{tenantID}/sessions/{sessionID}/processing-traces',
    client: () => platform.api.services,
    tenantID: () => scene.tenantID,
    pathParams: () => ({ sessionID: scene.sessionID }),
    valid: () => scene.ownerToken,
    outsider: () => scene.outsiderToken,
    // Operator token only: an empty header, a token that is not a JWT, a plugin's and its connection's credentials.
    invalid: async () => {
      const plugin = await platform.fixtures.plugin();
      const connection = await platform.fixtures.connection(scene.tenantID, plugin.pluginID);
      return ['', 'Bearer nope', plugin.authorization, connection.authorization];
    },
    // Operation 9 does not tell a tenant that does not exist from one the caller is not in.
    unknownTenant: 403,
  });

  describe('errors', () => {
    it('is 400 1002 naming each invalid id', async () => {
      const cases: [string, string, { field: string; received: string; allowed: string }[]][] = [
        [scene.tenantID, 'not-a-session', [{ field: 'sessionID', received: 'not-a-session', allowed: 'uuid' }]],
      ];
      for (const [tenantID, sessionID, fields] of cases) {
        const response = await discover(scene.ownerToken, sessionID, tenantID);
        expect(response.response.status).toBe(400);
        expect(singleError(response.error)).toEqual({ statusCode: 400, error: 'RequestValidationError', error_code: 1002, message: 'Invalid request data.', fields });
      }
    });

    it('is 404 1060 for an unknown session and for a session of another tenant', async () => {
      for (const sessionID of [randomUUID(), scene.otherSessionID]) {
        const response = await discover(scene.memberToken, sessionID);
        expect(response.response.status).toBe(404);
        expect(singleError(response.error)).toEqual(SESSION_NOT_FOUND);
      }
    });

    it('is 500 5999 without internals when the database fails', async () => {
      await withTableMissing(platform.dataSource, 'sessions', async () => {
        const response = await discover(scene.ownerToken);
        expect(response.response.status).toBe(500);
        expect(singleError(response.error)).toEqual({ statusCode: 500, error: 'UnknownError', error_code: 5999, message: 'For some unknown reason your request has not succeeded.' });
        expect(JSON.stringify(response.error)).not.toContain('sessions');
      });
    });
  });
});
