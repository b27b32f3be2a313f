import { randomUUID } from 'node:crypto';
import { createServer, Server, Socket } from 'node:net';
import { DnsStub, ScriptedTraces, startDnsStub, TraceProviderStub } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';
import { at, traceScene } from './trace-providers';

/**
 * Plugins' trace endpoints come from data: operations 9 and 10 reach them
 * only at public addresses, or at destinations OUTBOUND_ALLOW names
 * (docs/security.md, Outbound calls). Here only the port of one provider
 * stub is allow-listed, and a trap on another loopback port counts every
 * connection that gets through.
 */
describe('outbound calls of operations 9 and 10 reach public or allow-listed addresses only', () => {
  const TIMEOUT_MS = 4_000;
  const base = Date.parse('2026-11-20T13:00:00.000Z');
  let platform: TestPlatform;
  let dns: DnsStub;
  let provider: TraceProviderStub;
  let traces: ScriptedTraces;
  let trap: Server;
  let trapPort: number;
  let trapConnections = 0;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    trap = createServer((socket) => {
      trapConnections += 1;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    trapPort = (trap.address() as { port: number }).port;
    dns = await startDnsStub({
      // A name that resolves to loopback when the call is made: what DNS rebinding turns a public name into.
      'rebound.provider.test': { a: ['127.0.0.1'] },
      'metadata.provider.test': { a: ['169.254.169.254'] },
      'mixed.provider.test': { a: ['93.184.216.34', '10.1.2.3'] },
      'private6.provider.test': { aaaa: ['fd00::1'] },
    });
    traces = new ScriptedTraces();
    provider = await new TraceProviderStub(traces, '/platform-traces').start();
    platform = await startPlatform({
      apps: ['core-tenants', 'services-api'],
      env: {
        TRACE_PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS),
        OUTBOUND_ALLOW: `127.0.0.1:${new URL(provider.url).port}`,
        OUTBOUND_DNS_SERVERS: dns.server,
      },
    });
  });
  afterAll(async () => {
    await platform.close();
    await provider.stop();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => trap.close(resolve));
    await dns.close();
  });

  /** Installs on the tenant a plugin whose trace endpoint is `url`; its URN sorts by `order`. */
  const install = async (tenantID: string, order: number, url: string) => {
    const urn = `urn:plugin:${order}-outbound:${randomUUID()}`;
    const plugin = await platform.fixtures.plugin({ name: `Provider ${order}`, urn, traceEndpointUrl: url });
    await platform.fixtures.connection(tenantID, plugin.pluginID);
    return urn;
  };

  it('reports loopback, cloud metadata, private and rebound names as unreachable, connects to none, and still reaches the allow-listed provider', async () => {
    const scene = await traceScene(platform);
    traces.add({
      sessionID: scene.sessionID, messageID: scene.messageIDs[0], messageFingerprint: 'f', traceRef: 'ok-1', startedAt: at(base, 0), durationMs: 5, status: 'succeeded', stepCount: 1,
    });
    const refused = [
      `http://127.0.0.1:${trapPort}/traces`,
      `http://[::ffff:127.0.0.1]:${trapPort}/traces`,
      `http://localhost:${trapPort}/traces`,
      `http://rebound.provider.test:${trapPort}/traces`,
      'http://169.254.169.254/latest/meta-data',
      'http://metadata.provider.test/latest/meta-data',
      `http://mixed.provider.test:${trapPort}/traces`,
      `http://private6.provider.test:${trapPort}/traces`,
      'http://10.0.0.1/traces',
      'http://100.100.100.200/traces',
    ];
    const allowedUrn = await install(scene.tenantID, 0, provider.url);
    for (const [index, url] of refused.entries()) await install(scene.tenantID, index + 1, url);

    const response = await platform.api.services.GET('/v1/tenants/{tenantID}/sessions/{sessionID}/processing-traces', {
      params: { path: { tenantID: scene.tenantID, sessionID: scene.sessionID } },
      headers: { authorization: scene.ownerToken },
    });
    expect(response.response.status).toBe(200);
    expect(response.data!.sources.map((source: { status: string }) => source.status)).toEqual(['ready', ...refused.map(() => 'unreachable')]);
    expect(response.data!.sources[0].source).toBe(allowedUrn);
    expect(response.data!.messages.map((message: { traces: unknown[] }) => message.traces)).toEqual([[{ source: allowedUrn, traceRef: 'ok-1' }]]);
    expect(trapConnections).toBe(0);
    expect(provider.callsOf('list')).toHaveLength(1);
  });

  it('answers a refused address, a closed port and an unknown name alike: unreachable, and nothing else about them', async () => {
    const scene = await traceScene(platform);
    const closed = await new TraceProviderStub(new ScriptedTraces(), '/platform-traces').start();
    const closedPort = new URL(closed.url).port;
    await closed.stop();
    const urns = [
      await install(scene.tenantID, 1, `http://127.0.0.1:${trapPort}/traces`),
      // Allow-listed host, closed port: a real connection attempt that fails.
      await install(scene.tenantID, 2, `http://127.0.0.1:${closedPort}/traces`),
      await install(scene.tenantID, 3, 'http://unknown.provider.test/traces'),
    ];
    const discovered = await platform.api.services.GET('/v1/tenants/{tenantID}/sessions/{sessionID}/processing-traces', {
      params: { path: { tenantID: scene.tenantID, sessionID: scene.sessionID } },
      headers: { authorization: scene.ownerToken },
    });
    expect(discovered.data!.sources).toEqual(urns.map((urn, index) => ({ source: urn, name: `Provider ${index + 1}`, status: 'unreachable', traceRef: '' })));

    const retrieved = await platform.api.services.POST('/v1/tenants/{tenantID}/sessions/{sessionID}/processing-traces/retrieval', {
      params: { path: { tenantID: scene.tenantID, sessionID: scene.sessionID } },
      headers: { authorization: scene.ownerToken },
      body: { traces: urns.map((urn) => ({ source: urn, traceRef: 'any' })) },
    });
    expect(retrieved.response.status).toBe(200);
    expect(retrieved.data!.sources).toEqual(urns.map((urn, index) => ({ source: urn, name: `Provider ${index + 1}`, status: 'unreachable', traceRef: 'any' })));
    expect(trapConnections).toBe(0);
  });
});
