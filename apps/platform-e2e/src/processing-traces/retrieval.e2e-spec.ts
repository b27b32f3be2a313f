import { randomUUID } from 'node:crypto';
import { ReadTraceJson, singleError, withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';
import { at, InstalledProvider, installTraceProvider, traceScene } from './trace-providers';
import { sentAsIs } from '../support/sent-as-is';
import { describeStandardRefusals } from '../support/standard-refusals';

const SESSION_NOT_FOUND = { statusCode: 404, error: 'SessionNotFoundError', error_code: 1060, message: 'Session not found.' };
const invalid = (fields: { field: string; received: string; allowed: string }[]) => ({
  statusCode: 400,
  error: 'RequestValidationError',
  error_code: 1002,
  message: 'Invalid request data.',
  fields,
});

describe('POST /v1/tenants/:tenantID/sessions/:sessionID/processing-traces/retrieval (operation 10)', () => {
  let platform: TestPlatform;
  let scene: Awaited<ReturnType<typeof traceScene>>;
  let intent: InstalledProvider;
  let crm: InstalledProvider;
  const stubs: InstalledProvider[] = [];
  const base = Date.parse('2026-11-20T13:00:00.000Z');

  const retrieve = (authorization: string, body: unknown, sessionID = scene.sessionID, tenantID = scene.tenantID) =>
    platform.api.services.POST('/v1/tenants/{tenantID}/sessions/{sessionID}/processing-traces/retrieval', {
      params: { path: { tenantID, sessionID } },
      headers: { authorization },
      ...sentAsIs(body),
    });
  const ref = (provider: InstalledProvider, traceRef: string) => ({ source: provider.urn, traceRef });

  const step = (stepID: string, offset: number, extra: Record<string, unknown> = {}) => ({
    stepID,
    title: `Passo ${stepID}`,
    category: 'intention',
    status: 'succeeded',
    startedAt: at(base, offset),
    durationMs: 10,
    details: [],
    metrics: [],
    ...extra,
  });
  const ready = (steps: unknown[], processStatus = 'succeeded', offset = 0, durationMs = 500): Omit<ReadTraceJson, 'traceRef'> => ({
    status: 'ready',
    processStatus,
    startedAt: at(base, offset),
    durationMs,
    steps,
    details: [],
  });
  /** A trace of the scene's first message at a provider, read as `read`. */
  const script = (provider: InstalledProvider, traceRef: string, read: Omit<ReadTraceJson, 'traceRef'>) =>
    provider.traces.add({
      sessionID: scene.sessionID,
      messageID: scene.messageIDs[0],
      messageFingerprint: '',
      traceRef,
      startedAt: at(base, 0),
      durationMs: 1,
      status: 'succeeded',
      stepCount: 1,
      read,
    });

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants', 'services-api'], env: { TRACE_PROVIDER_TIMEOUT_MS: '5000' } });
    scene = await traceScene(platform);
    intent = await installTraceProvider(platform, scene.tenantID, { name: 'Classificador de intenção', urn: 'urn:plugin:a-intent', iconUrl: 'https://cdn.example/intent.png' });
    crm = await installTraceProvider(platform, scene.tenantID, { name: 'Enriquecimento CRM', urn: 'urn:plugin:b-crm' });
    stubs.push(intent, crm);
  });
  afterAll(async () => {
    for (const installed of stubs) await installed.stub.stop();
    await platform.close();
  });

  it('merges the steps of every source sorted by start (ties by source), annotated with their plugin, details truncated', async () => {
    const long = 'é'.repeat(2_500);
    script(
      intent,
      'merge-i',
      {
        ...ready([
          step('i2', 100, { subtitle: 'segunda via', highlight: 'boleto', metrics: [{ label: 'confiança', value: '0.97' }] }),
          step('i1', 0, { details: [{ kind: 'text', label: 'Mensagem', value: long }, { kind: 'json', label: 'Curto', value: '{}', truncated: true }] }),
        ]),
        details: [{ kind: 'text', label: 'Modelo', value: 'intent-v3' }],
      },
    );
    script(crm, 'merge-c', ready([step('c1', 100, { status: 'failed', error: 'timeout at CRM' }), step('c0', 50)], 'succeeded', 50, 600));

    const response = await retrieve(scene.memberToken, { traces: [ref(crm, 'merge-c'), ref(intent, 'merge-i')] });
    expect(response.response.status).toBe(200);
    const intentAnnotation = {
      plugin: { pluginIcon: 'https://cdn.example/intent.png', pluginName: intent.name, pluginURN: intent.urn },
      pluginURN: intent.urn,
      source: intent.urn,
      sourceIcon: 'https://cdn.example/intent.png',
      sourceName: intent.name,
    };
    const crmAnnotation = {
      plugin: { pluginIcon: '', pluginName: crm.name, pluginURN: crm.urn },
      pluginURN: crm.urn,
      source: crm.urn,
      sourceIcon: '',
      sourceName: crm.name,
    };
    expect(response.data!).toEqual({
      details: [{ kind: 'text', label: 'Modelo', value: 'intent-v3', truncated: false, source: intent.urn, sourceName: intent.name }],
      durationMs: 650,
      processStatus: 'succeeded',
      sources: [
        { source: crm.urn, name: crm.name, status: 'ready', traceRef: 'merge-c' },
        { source: intent.urn, name: intent.name, status: 'ready', traceRef: 'merge-i' },
      ],
      startedAt: at(base, 0),
      status: 'ready',
      stepCount: 4,
      steps: [
        {
          ...step('i1', 0),
          details: [
            { kind: 'text', label: 'Mensagem', value: 'é'.repeat(2_000), truncated: true },
            { kind: 'json', label: 'Curto', value: '{}', truncated: true },
          ],
          ...intentAnnotation,
        },
        { ...step('c0', 50), ...crmAnnotation },
        { ...step('i2', 100, { subtitle: 'segunda via', highlight: 'boleto', metrics: [{ label: 'confiança', value: '0.97' }] }), ...intentAnnotation },
        { ...step('c1', 100, { status: 'failed', error: 'timeout at CRM' }), ...crmAnnotation },
      ],
      version: 1,
    });
    // One read call per source, naming the traces asked of it.
    expect(JSON.parse(intent.stub.callsOf('read').at(-1)!.body)).toEqual({ traceRefs: ['merge-i'] });
  });

  it('breaks ties at the same start and source by traceRef, then the provider\'s order', async () => {
    script(intent, 'tie-b', ready([step('b-first', 0), step('b-second', 0)]));
    script(intent, 'tie-a', ready([step('a-only', 0)]));
    const response = await retrieve(scene.ownerToken, { traces: [ref(intent, 'tie-b'), ref(intent, 'tie-a')] });
    expect(response.data!.steps.map((entry: { stepID: string }) => entry.stepID)).toEqual(['a-only', 'b-first', 'b-second']);
    expect(JSON.parse(intent.stub.callsOf('read').at(-1)!.body)).toEqual({ traceRefs: ['tie-b', 'tie-a'] });
  });

  describe('status and processStatus', () => {
    const cases: [string, () => { traces: { source: string; traceRef: string }[] }, string, string, string[]][] = [];
    const rule = (name: string, body: () => { traces: { source: string; traceRef: string }[] }, status: string, processStatus: string, sources: string[]) =>
      cases.push([name, body, status, processStatus, sources]);

    beforeAll(() => {
      script(intent, 'st-succeeded', ready([step('s', 0)], 'succeeded'));
      script(intent, 'st-failed', ready([step('s', 0)], 'failed'));
      script(intent, 'st-stopped', ready([step('s', 0)], 'stopped'));
      script(intent, 'st-running', ready([step('s', 0)], 'running'));
      script(intent, 'st-pending', { status: 'pending', startedAt: at(base, 0), durationMs: 0, steps: [] });
      script(intent, 'st-expired', { status: 'expired' });
    });

    rule('ready: every trace read and finished', () => ({ traces: [ref(intent, 'st-succeeded')] }), 'ready', 'succeeded', ['ready']);
    rule('processStatus failed when any finished trace failed', () => ({ traces: [ref(intent, 'st-succeeded'), ref(intent, 'st-failed')] }), 'ready', 'failed', ['ready', 'ready']);
    rule('processStatus stopped when one stopped and none failed', () => ({ traces: [ref(intent, 'st-stopped'), ref(intent, 'st-succeeded')] }), 'ready', 'stopped', ['ready', 'ready']);
    rule('pending and running when a trace still runs (whatever the provider calls it)', () => ({ traces: [ref(intent, 'st-running'), ref(intent, 'st-failed')] }), 'pending', 'running', ['pending', 'ready']);
    rule('pending when the provider says pending', () => ({ traces: [ref(intent, 'st-pending')] }), 'pending', 'running', ['pending']);
    rule('not_found when no trace is known', () => ({ traces: [ref(intent, 'st-nope')] }), 'not_found', 'failed', ['not_found']);
    rule('not_found for a source not installed on the tenant', () => ({ traces: [{ source: 'urn:plugin:not-installed', traceRef: 'x' }] }), 'not_found', 'failed', ['not_found']);
    rule('expired when gone and at least one expired', () => ({ traces: [ref(intent, 'st-expired'), ref(intent, 'st-nope')] }), 'expired', 'failed', ['expired', 'not_found']);
    rule('partial when some traces read and others not', () => ({ traces: [ref(intent, 'st-succeeded'), ref(intent, 'st-nope')] }), 'partial', 'succeeded', ['ready', 'not_found']);
    rule('partial keeps running when the read one runs', () => ({ traces: [ref(intent, 'st-running'), ref(intent, 'st-expired')] }), 'partial', 'running', ['pending', 'expired']);

    it.each(cases)('%s', async (_name, body, status, processStatus, sources) => {
      const response = await retrieve(scene.ownerToken, body());
      expect(response.response.status).toBe(200);
      expect({ status: response.data!.status, processStatus: response.data!.processStatus }).toEqual({ status, processStatus });
      expect(response.data!.sources.map((source: { status: string }) => source.status)).toEqual(sources);
    });

    it('error when no trace could be read because its source failed; partial when another was read', async () => {
      const broken = await installTraceProvider(platform, scene.tenantID, { urn: `urn:plugin:c-broken:${randomUUID()}` });
      stubs.push(broken);
      for (const [fault, sourceStatus] of [
        ['status500', 'error'],
        ['malformed', 'invalid_response'],
        ['garbage', 'invalid_response'],
        ['hang', 'timeout'],
      ] as const) {
        broken.stub.fault = fault;
        const alone = await retrieve(scene.ownerToken, { traces: [ref(broken, `${fault}-1`), ref(intent, 'st-nope')] });
        expect({ status: alone.data!.status, processStatus: alone.data!.processStatus, steps: alone.data!.steps }).toEqual({ status: 'error', processStatus: 'failed', steps: [] });
        expect(alone.data!.sources.map((source: { status: string }) => source.status)).toEqual([sourceStatus, 'not_found']);
        expect(alone.data!.startedAt).toBeNull();

        const mixed = await retrieve(scene.ownerToken, { traces: [ref(broken, `${fault}-2`), ref(intent, 'st-succeeded')] });
        expect(mixed.response.status).toBe(200);
        expect({ status: mixed.data!.status, processStatus: mixed.data!.processStatus, stepCount: mixed.data!.stepCount }).toEqual({
          status: 'partial',
          processStatus: 'succeeded',
          stepCount: 1,
        });
      }
      broken.stub.fault = undefined;
      await broken.stub.stop();
      const unreachable = await retrieve(scene.ownerToken, { traces: [ref(broken, 'down')] });
      expect(unreachable.data!.sources).toEqual([{ source: broken.urn, name: expect.any(String), status: 'unreachable', traceRef: 'down' }]);
      expect(unreachable.data!.status).toBe('error');
    });
  });

  describe('cache', () => {
    it('serves a terminal retrieval without calling the provider again, whatever the order or repeats of the traces', async () => {
      script(intent, 'cache-i', ready([step('ci', 0)]));
      script(crm, 'cache-c', ready([step('cc', 10)]));
      const first = await retrieve(scene.ownerToken, { traces: [ref(intent, 'cache-i'), ref(crm, 'cache-c')] });
      expect(first.data!.status).toBe('ready');
      const readsBefore = intent.stub.callsOf('read').length + crm.stub.callsOf('read').length;

      intent.traces.setRead('cache-i', ready([step('changed', 0)]));
      const again = await retrieve(scene.memberToken, { traces: [ref(crm, 'cache-c'), ref(intent, 'cache-i'), ref(crm, 'cache-c')] });
      expect(again.response.status).toBe(200);
      expect(again.data!.steps).toEqual(first.data!.steps);
      expect(intent.stub.callsOf('read').length + crm.stub.callsOf('read').length).toBe(readsBefore);
      expect(again.data!.sources.map((source: { traceRef: string }) => source.traceRef)).toEqual(['cache-c', 'cache-i']);
    });

    it('applies the current plugin annotation and installation to a cached retrieval', async () => {
      const renamed = await installTraceProvider(platform, scene.tenantID, { name: 'CRM antigo', urn: `urn:plugin:d-renamed:${randomUUID()}` });
      stubs.push(renamed);
      script(renamed, 'cache-annotated', ready([step('ca', 0)]));
      await retrieve(scene.ownerToken, { traces: [ref(renamed, 'cache-annotated')] });
      await platform.dataSource.query(`UPDATE plugins SET name = 'CRM renomeado' WHERE id = $1`, [renamed.pluginID]);
      const afterRename = await retrieve(scene.ownerToken, { traces: [ref(renamed, 'cache-annotated')] });
      expect(afterRename.data!.steps[0].plugin.pluginName).toBe('CRM renomeado');
      expect(renamed.stub.callsOf('read')).toHaveLength(1);

      await platform.dataSource.query(`UPDATE plugin_connections SET status = 'removed', removed_at = now() WHERE plugin_id = $1`, [renamed.pluginID]);
      const afterRemoval = await retrieve(scene.ownerToken, { traces: [ref(renamed, 'cache-annotated')] });
      expect({ status: afterRemoval.data!.status, steps: afterRemoval.data!.steps }).toEqual({ status: 'not_found', steps: [] });
    });

    it('fetches a running retrieval again, and caches it once finished', async () => {
      script(intent, 'cache-running', ready([step('r1', 0)], 'running'));
      const reads = () => intent.stub.callsOf('read').length;
      const before = reads();
      expect((await retrieve(scene.ownerToken, { traces: [ref(intent, 'cache-running')] })).data!.status).toBe('pending');
      expect((await retrieve(scene.ownerToken, { traces: [ref(intent, 'cache-running')] })).data!.status).toBe('pending');
      expect(reads()).toBe(before + 2);

      intent.traces.setRead('cache-running', ready([step('r1', 0), step('r2', 5)], 'succeeded'));
      const finished = await retrieve(scene.ownerToken, { traces: [ref(intent, 'cache-running')] });
      expect({ status: finished.data!.status, stepCount: finished.data!.stepCount }).toEqual({ status: 'ready', stepCount: 2 });
      await retrieve(scene.ownerToken, { traces: [ref(intent, 'cache-running')] });
      expect(reads()).toBe(before + 3);
    });

    it('does not cache a retrieval a source failed: the next one reads again', async () => {
      script(crm, 'cache-flaky', ready([step('f', 0)]));
      crm.stub.fault = 'status500';
      expect((await retrieve(scene.ownerToken, { traces: [ref(crm, 'cache-flaky')] })).data!.status).toBe('error');
      crm.stub.fault = undefined;
      expect((await retrieve(scene.ownerToken, { traces: [ref(crm, 'cache-flaky')] })).data!.status).toBe('ready');
    });
  });

  describe('validation of the traces array', () => {
    const item = { source: 'urn:plugin:a-intent', traceRef: 'v' };

    it('accepts 1 and 10 items', async () => {
      for (const count of [1, 10]) {
        const response = await retrieve(scene.ownerToken, { traces: Array.from({ length: count }, (_, index) => ({ ...item, traceRef: `v-${index}` })) });
        expect(response.response.status).toBe(200);
        expect(response.data!.sources).toHaveLength(count);
      }
    });

    it('is 400 1002 for 0 or 11 items, a missing or wrong array', async () => {
      const allowed = 'array of 1-10 {source, traceRef}';
      const eleven = Array.from({ length: 11 }, () => item);
      const cases: [unknown, { field: string; received: string; allowed: string }[]][] = [
        [{ traces: [] }, [{ field: 'traces', received: '[]', allowed }]],
        [{ traces: eleven }, [{ field: 'traces', received: JSON.stringify(eleven), allowed }]],
        [{}, [{ field: 'traces', received: 'undefined', allowed }]],
        [{ traces: 'all' }, [{ field: 'traces', received: 'all', allowed }]],
      ];
      for (const [body, fields] of cases) {
        const response = await retrieve(scene.ownerToken, body);
        expect(response.response.status).toBe(400);
        expect(singleError(response.error)).toEqual(invalid(fields));
      }
    });

    it('is 400 1002 naming a missing or invalid source or traceRef of an item', async () => {
      const cases: [unknown, { field: string; received: string; allowed: string }[]][] = [
        [{ traces: [{ traceRef: 'x' }] }, [{ field: 'traces.0.source', received: 'undefined', allowed: 'string of 1-200 characters' }]],
        [{ traces: [item, { source: 'urn:plugin:a-intent' }] }, [{ field: 'traces.1.traceRef', received: 'undefined', allowed: 'string of 1-500 characters' }]],
        [{ traces: [{ source: '', traceRef: 42 }] }, [
          { field: 'traces.0.source', received: '', allowed: 'string of 1-200 characters' },
          { field: 'traces.0.traceRef', received: '42', allowed: 'string of 1-500 characters' },
        ]],
        [{ traces: [{ ...item, extra: true }] }, [{ field: 'traces.0.extra', received: 'true', allowed: 'no such field' }]],
        [{ traces: [item], more: 1 }, [{ field: 'more', received: '1', allowed: 'no such field' }]],
      ];
      for (const [body, fields] of cases) {
        const response = await retrieve(scene.ownerToken, body);
        expect(response.response.status).toBe(400);
        expect(singleError(response.error)).toEqual(invalid(fields));
      }
    });

    it('is 400 1002 for a body that is not a JSON object', async () => {
      for (const body of ['[]', '{"traces": [', '"text"']) {
        const response = await retrieve(scene.ownerToken, body);
        expect(response.response.status).toBe(400);
        expect(singleError(response.error).error_code).toBe(1002);
      }
    });
  });

  describeStandardRefusals({
    method: 'POST',
    path: '/v1/tenants/{tenantID}/sessions/{sessionID}/processing-traces/retrieval',
    client: () => platform.api.services,
    tenantID: () => scene.tenantID,
    pathParams: () => ({ sessionID: scene.sessionID }),
    body: () => ({ traces: [{ source: intent.urn, traceRef: 'st-succeeded' }] }),
    valid: () => scene.ownerToken,
    outsider: () => scene.outsiderToken,
    // Operator token only: an empty header, a token that is not a JWT, a plugin's credentials.
    invalid: async () => ['', 'Bearer nope', (await platform.fixtures.plugin()).authorization],
    // Operation 10 does not tell a tenant that does not exist from one the caller is not in.
    unknownTenant: 403,
  });

  describe('errors', () => {
    const body = () => ({ traces: [ref(intent, 'st-succeeded')] });

    it('is 400 1002 naming each invalid id', async () => {
      const badSession = await retrieve(scene.ownerToken, body(), 'bad');
      expect(singleError(badSession.error)).toEqual(invalid([{ field: 'sessionID', received: 'bad', allowed: 'uuid' }]));
    });

    it('is 404 1060 for an unknown session and a session of another tenant, even when cached', async () => {
      await retrieve(scene.ownerToken, body());
      for (const sessionID of [randomUUID(), scene.otherSessionID]) {
        const response = await retrieve(scene.ownerToken, body(), sessionID);
        expect(response.response.status).toBe(404);
        expect(singleError(response.error)).toEqual(SESSION_NOT_FOUND);
      }
    });

    it('is 500 5999 without internals when the database fails', async () => {
      await withTableMissing(platform.dataSource, 'plugin_connections', async () => {
        const response = await retrieve(scene.ownerToken, body());
        expect(response.response.status).toBe(500);
        expect(singleError(response.error)).toEqual({ statusCode: 500, error: 'UnknownError', error_code: 5999, message: 'For some unknown reason your request has not succeeded.' });
        expect(JSON.stringify(response.error)).not.toContain('plugin_connections');
      });
    });
  });
});
