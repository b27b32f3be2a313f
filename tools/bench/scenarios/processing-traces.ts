import { CoreTenantsConfig, issueOperatorToken } from '@apps/core-tenants';
import { loadConfig } from '@platform/config';
import { createDataSource } from '@platform/database';
import { ConversationFixtures, FixtureBuilder, ScriptedTraces, TraceProviderStub } from '@platform/testing';
import { BenchContext } from '../context';
import { measure, printTable, startProcess, stopProcess, waitForHttp } from '../harness';

const PROVIDERS = 5;
const PROVIDER_LATENCY_MS = 50;
const MESSAGES = 5;
const COLD_SESSIONS = 1_000;

/**
 * Operations 9 and 10 against five trace providers on loopback answering in
 * 50 ms each: discovery should cost about one provider's latency (parallel
 * fan-out), not five; a cached retrieval should not touch a provider at all.
 */
export async function processingTraces(context: BenchContext): Promise<void> {
  const [corePort, servicesPort] = [0, 1].map((offset) => context.portBase + offset);
  const env = {
    ...context.env,
    CORE_TENANTS_PORT: String(corePort),
    SERVICES_API_PORT: String(servicesPort),
    OPERATOR_JWKS_URL: `http://127.0.0.1:${corePort}/.well-known/jwks.json`,
    BILLING_API_URL: 'http://127.0.0.1:9',
    BILLING_API_KEY: 'sk_test_bench',
    VM_PROVIDER_URL: 'http://127.0.0.1:9',
    VM_PROVIDER_TOKEN: 'bench',
    TRACE_PROVIDER_TIMEOUT_MS: '1500',
    // The stub providers listen on loopback, on ports picked at random: loopback is trusted here.
    OUTBOUND_ALLOW: '127.0.0.1',
  };

  const dataSource = createDataSource({ url: context.databaseUrl, poolSize: 2, applicationName: 'bench' });
  await dataSource.initialize();
  const fixtures = new FixtureBuilder(dataSource);
  const conversations = new ConversationFixtures(dataSource);
  const tenantID = await fixtures.tenant('Bench tenant');
  const operator = await fixtures.operator();
  await fixtures.membership(tenantID, operator.operatorID, 'member');
  const contactID = await conversations.contact(tenantID);
  const inboxID = await conversations.inbox(tenantID);
  const sessionID = await conversations.session(tenantID, { contactID, inboxID });
  const start = Date.now() - 3_600_000;
  const messageIDs: string[] = [];
  for (let index = 0; index < MESSAGES; index += 1) messageIDs.push(await conversations.message(tenantID, sessionID, { createdAt: new Date(start + index * 60_000) }));
  const coldSessions: string[] = [];
  for (let index = 0; index < COLD_SESSIONS; index += 1) coldSessions.push(await conversations.session(tenantID, { contactID, inboxID }));

  const stubs: TraceProviderStub[] = [];
  const urns: string[] = [];
  for (let provider = 0; provider < PROVIDERS; provider += 1) {
    const traces = new ScriptedTraces();
    messageIDs.forEach((messageID, index) =>
      traces.add({
        sessionID,
        messageID,
        messageFingerprint: `sha256:${index}`,
        traceRef: `p${provider}-m${index}`,
        startedAt: new Date(start + index * 60_000 + provider * 10).toISOString(),
        durationMs: 120,
        status: 'succeeded',
        stepCount: 4,
      }),
    );
    const stub = await new TraceProviderStub(traces, '/traces-api').start();
    stub.latencyMs = PROVIDER_LATENCY_MS;
    stubs.push(stub);
    const urn = `urn:plugin:bench-trace-provider-${provider}-${Date.now()}`;
    urns.push(urn);
    const plugin = await fixtures.plugin({ name: `Provider ${provider}`, urn, traceEndpointUrl: stub.url });
    await fixtures.connection(tenantID, plugin.pluginID);
  }
  const { token } = await issueOperatorToken(loadConfig(CoreTenantsConfig, { ...process.env, ...env }), operator.operatorID);
  await dataSource.destroy();

  const core = await startProcess('dist/apps/core-tenants/src/main.js', env);
  const services = await startProcess('dist/apps/services-api/src/main.js', env);
  try {
    await waitForHttp(`http://127.0.0.1:${corePort}/health/ready`);
    await waitForHttp(`http://127.0.0.1:${servicesPort}/health/ready`);
    const base = `http://127.0.0.1:${servicesPort}`;
    const headers = { authorization: `Bearer ${token}` };
    const jsonHeaders = { ...headers, 'content-type': 'application/json' };
    const discoveryPath = `/v1/tenants/${tenantID}/sessions/${sessionID}/processing-traces`;
    const retrievalPath = `${discoveryPath}/retrieval`;
    const terminal = JSON.stringify({ traces: urns.map((source, provider) => ({ source, traceRef: `p${provider}-m0` })) });
    // Warm up: credentials cached, connections to providers open, JIT warm.
    await measure({ name: 'warm-up', url: `${base}${discoveryPath}`, headers, amount: 200, connections: 4 });
    await measure({ name: 'warm-up', url: `${base}${retrievalPath}`, headers: jsonHeaders, method: 'POST', body: terminal, amount: 50, connections: 2 });

    let cold = 0;
    const results = [
      await measure({ name: `discovery, ${PROVIDERS} providers x ${PROVIDER_LATENCY_MS} ms, ${MESSAGES} messages (credentials cached)`, url: `${base}${discoveryPath}`, headers, connections: 16 }),
      await measure({ name: `discovery, same, 1 connection (latency alone)`, url: `${base}${discoveryPath}`, headers, connections: 1 }),
      await measure({
        name: `discovery, ${PROVIDERS} providers, a new session per request (credentials from core-tenants)`,
        url: base,
        headers,
        connections: 4,
        amount: COLD_SESSIONS,
        nextPath: () => `/v1/tenants/${tenantID}/sessions/${coldSessions[cold++ % COLD_SESSIONS]}/processing-traces`,
      }),
      await measure({ name: `retrieval of ${PROVIDERS} traces from ${PROVIDERS} providers, cached (terminal)`, url: `${base}${retrievalPath}`, headers: jsonHeaders, method: 'POST', body: terminal, connections: 16 }),
      await measure({ name: 'retrieval, cached, 1 connection (latency alone)', url: `${base}${retrievalPath}`, headers: jsonHeaders, method: 'POST', body: terminal, connections: 1 }),
    ];
    printTable(`Operations 9 and 10: ${PROVIDERS} trace providers answering in ${PROVIDER_LATENCY_MS} ms each (10 s per row unless an amount is given)`, results);
    const readCalls = stubs.reduce((sum, stub) => sum + stub.callsOf('read').length, 0);
    process.stdout.write(`provider read calls during all retrievals: ${readCalls} (the warm-up's first, concurrent requests; every later one came from the cache)\n`);
  } finally {
    await stopProcess(services);
    await stopProcess(core);
    for (const stub of stubs) await stub.stop();
  }
}
