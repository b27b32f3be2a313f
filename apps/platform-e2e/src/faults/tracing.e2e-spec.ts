import { StubServer } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { FaultPlatform, startFaultPlatform } from './harness/fault-platform';

/** One span as an OTLP/JSON export carries it, with the service that sent it. */
interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

/** OTLP span kinds (opentelemetry-proto). */
const SERVER = 2;
const CLIENT = 3;

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  arrayValue?: { values: OtlpValue[] };
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: { spans: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }[] }[];
  }[];
}

const valueOf = (value: OtlpValue): unknown => value.stringValue ?? value.intValue ?? value.arrayValue?.values.map(valueOf);
const attributesOf = (attributes: OtlpAttribute[] = []) => Object.fromEntries(attributes.map((attribute) => [attribute.key, valueOf(attribute.value)]));

/** A trace collector on loopback: takes OTLP/JSON exports as a real collector's HTTP receiver does. */
function startCollector(): Promise<StubServer> {
  return new StubServer((request, _body, url) => (request.method === 'POST' && url.pathname === '/v1/traces' ? { status: 200, body: {} } : undefined)).start();
}

function spansCollectedBy(collector: StubServer): ExportedSpan[] {
  return collector.callsTo('POST', '/v1/traces').flatMap((call) =>
    (JSON.parse(call.body) as OtlpExport).resourceSpans.flatMap((resourceSpans) => {
      const service = String(attributesOf(resourceSpans.resource.attributes)['service.name']);
      return resourceSpans.scopeSpans.flatMap((scope) =>
        scope.spans.map((span) => ({
          service,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          name: span.name,
          kind: span.kind,
          attributes: attributesOf(span.attributes),
        })),
      );
    }),
  );
}

/**
 * Traces and request ids with the apps as production runs them: built, in
 * processes of their own, tracing turned on by the standard OTEL_* variables
 * alone and exporting over OTLP to a collector in the test.
 */
describe('traces and request ids across app processes (operation 1)', () => {
  let platform: FaultPlatform;
  let collector: StubServer;
  let tenantID: string;
  let ownerToken: string;

  beforeAll(async () => {
    collector = await startCollector();
    platform = await startFaultPlatform({
      replicas: { 'core-tenants': 1, 'services-api': 1 },
      env: {
        LOG_LEVEL: 'info',
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
    });
    tenantID = await platform.fixtures.tenant();
    const owner = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    ownerToken = await platform.tokenFor(owner.operatorID);
  });
  afterAll(async () => {
    await platform?.close();
    await collector?.stop();
  });

  it('exports one trace from services-api through core-tenants to the VM provider, and core-tenants logs the caller\'s request id', async () => {
    const plugin = await platform.fixtures.plugin({ kind: 'hosted' });
    const vmID = `vm-${Math.random().toString(36).slice(2)}`;
    platform.stubs.vms.addVm(vmID);
    const connection = await platform.fixtures.connection(tenantID, plugin.pluginID, { kind: 'hosted', vmID });
    const requestID = `fault-trace-${Math.random().toString(36).slice(2)}`;
    const [services] = platform.replicas['services-api'];
    const [core] = platform.replicas['core-tenants'];

    const { response } = await platform.replica('services-api', services.url).DELETE('/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}', {
      params: { path: { tenantID, pluginConnectionID: connection.pluginConnectionID } },
      headers: { authorization: `Bearer ${ownerToken}`, 'x-request-id': requestID },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe(requestID);

    // core-tenants logged the message under the id the caller gave services-api.
    await eventually(() => {
      const lines = core
        .logs()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { req?: { id?: string }; msg?: string; app?: string; rpc?: { pattern?: string } });
      expect(lines).toContainEqual(expect.objectContaining({ app: 'core-tenants', req: { id: requestID }, msg: 'message completed', rpc: expect.objectContaining({ pattern: 'plugin-connections.delete' }) }));
    });

    const transport = 'transport plugin-connections.delete';
    const find = (predicate: (span: ExportedSpan) => boolean) => spansCollectedBy(collector).find(predicate);
    let vmCall: ExportedSpan | undefined;
    let httpServer: ExportedSpan | undefined;
    // Each app exports its spans on its own schedule: wait for both ends of the trace.
    await eventually(() => {
      vmCall = find((span) => span.service === 'core-tenants' && span.kind === CLIENT && String(span.attributes['url.full']).endsWith(`/vms/${vmID}`));
      httpServer = find((span) => span.service === 'services-api' && span.kind === SERVER && span.attributes['http.request.header.x-request-id'] !== undefined && String(span.attributes['url.path'] ?? span.attributes['http.target']).includes(connection.pluginConnectionID));
      expect(vmCall).toBeDefined();
      expect(httpServer).toBeDefined();
    });
    const client = find((span) => span.service === 'services-api' && span.kind === CLIENT && span.name === transport && span.traceId === httpServer?.traceId);
    const listener = find((span) => span.service === 'core-tenants' && span.kind === SERVER && span.name === transport && span.traceId === client?.traceId);
    expect(httpServer?.attributes['http.request.header.x-request-id']).toEqual([requestID]);
    expect(client?.parentSpanId).toBe(httpServer?.spanId);
    expect(listener?.parentSpanId).toBe(client?.spanId);
    expect(vmCall!.traceId).toBe(httpServer?.traceId);
  });
});
