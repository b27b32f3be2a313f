// First: tracing must start before the modules below load http, pg and ioredis.
import { spans, tracing } from '../support/in-memory-tracing';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { DeletePluginConnection, InstallPluginConnection } from '@platform/contracts';
import { TEST_REDIS_URL } from '@platform/testing';
import { requestChannel, transportNamespaceOf } from '@platform/transport';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { packetOf } from '../support/transport-messages';
import { startPlatform, TestPlatform } from '../support/platform';

/**
 * One trace across services-api, the Redis transport, core-tenants and the
 * provider it calls. Both apps run in this process (and share its tracer),
 * so the test proves the context crossed in the message itself: the
 * listener's span has as parent the span id the published message carried.
 */
describe('traces across the apps (operation 1)', () => {
  let platform: TestPlatform;
  let tenantID: string;
  let ownerToken: string;
  let subscriber: Redis;
  const published: { pattern: string; data: unknown; metadata?: Record<string, string> }[] = [];

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants', 'services-api'] });
    tenantID = await platform.fixtures.tenant();
    const owner = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    ownerToken = await platform.tokenFor(owner.operatorID);
    // What services-api publishes, as any listener receives it (the packet inside the seal).
    subscriber = new Redis(TEST_REDIS_URL);
    const namespace = transportNamespaceOf({ DATABASE_URL: platform.env.DATABASE_URL! });
    await subscriber.subscribe(requestChannel(namespace, DeletePluginConnection.pattern), requestChannel(namespace, InstallPluginConnection.pattern));
    subscriber.on('message', (_channel, message) => published.push(packetOf(message)));
  });
  afterAll(async () => {
    subscriber?.disconnect();
    await platform?.close();
    await tracing.shutdown();
  });

  const remove = (pluginConnectionID: string, requestID: string) =>
    platform.api.services.DELETE('/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}', {
      params: { path: { tenantID, pluginConnectionID } },
      headers: { authorization: `Bearer ${ownerToken}`, 'x-request-id': requestID },
    });

  async function hostedConnection() {
    const plugin = await platform.fixtures.plugin({ kind: 'hosted' });
    const vmID = `vm-${Math.random().toString(36).slice(2)}`;
    platform.vms.addVm(vmID);
    const connection = await platform.fixtures.connection(tenantID, plugin.pluginID, { kind: 'hosted', vmID });
    return { ...connection, vmID };
  }

  const spanId = (span: ReadableSpan) => span.spanContext().spanId;
  const traceId = (span: ReadableSpan) => span.spanContext().traceId;
  /** Whether `ancestor` is `span` or one of its parents, through the spans exported so far. */
  function descendsFrom(span: ReadableSpan, ancestor: ReadableSpan): boolean {
    const byID = new Map(spans.getFinishedSpans().map((each) => [spanId(each), each]));
    for (let current: ReadableSpan | undefined = span; current; current = byID.get(current.parentSpanContext?.spanId ?? '')) {
      if (spanId(current) === spanId(ancestor)) return true;
    }
    return false;
  }

  it('gives one trace from the HTTP request through the message to the VM provider, with the request id passed along', async () => {
    const connection = await hostedConnection();
    const requestID = `trace-test-${Math.random().toString(36).slice(2)}`;
    published.length = 0;
    spans.reset();

    const response = await remove(connection.pluginConnectionID, requestID);
    expect(response.response.status).toBe(200);

    // The message carried the request id and the trace context beside its payload.
    await eventually(() => expect(published).toHaveLength(1));
    const message = published[0];
    expect(message.data).toEqual({ tenantID, pluginConnectionID: connection.pluginConnectionID });
    expect(message.metadata?.['x-request-id']).toBe(requestID);
    const [, sentTraceID, sentSpanID] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(message.metadata?.traceparent ?? '') ?? [];
    expect(sentSpanID).toBeDefined();

    const named = (name: string, kind: SpanKind) => spans.getFinishedSpans().filter((span) => span.name === name && span.kind === kind);
    const transport = `transport ${DeletePluginConnection.pattern}`;
    await eventually(() => expect(named(transport, SpanKind.SERVER)).toHaveLength(1));

    // services-api: the request's server span, and under it the client span the message was sent in.
    const [clientSpan] = named(transport, SpanKind.CLIENT);
    expect(spanId(clientSpan)).toBe(sentSpanID);
    expect(traceId(clientSpan)).toBe(sentTraceID);
    const [httpServerSpan] = spans
      .getFinishedSpans()
      .filter((span) => span.kind === SpanKind.SERVER && String(span.attributes['url.path'] ?? span.attributes['http.target']).includes(connection.pluginConnectionID));
    expect(httpServerSpan).toBeDefined();
    expect(httpServerSpan.attributes['http.request.header.x-request-id']).toEqual([requestID]);
    expect(httpServerSpan.name).toBe('DELETE /v1/tenants/:tenantID/plugins/connections/:pluginConnectionID');
    expect(descendsFrom(clientSpan, httpServerSpan)).toBe(true);

    // core-tenants: its span continues the one named in the message...
    const [listenerSpan] = named(transport, SpanKind.SERVER);
    expect(traceId(listenerSpan)).toBe(sentTraceID);
    expect(listenerSpan.parentSpanContext?.spanId).toBe(sentSpanID);

    // ...and the VM provider call is made under it, carrying the same request id.
    const vmCall = spans.getFinishedSpans().find((span) => span.kind === SpanKind.CLIENT && String(span.attributes['url.full']).endsWith(`/vms/${connection.vmID}`));
    expect(vmCall).toBeDefined();
    expect(traceId(vmCall!)).toBe(sentTraceID);
    expect(descendsFrom(vmCall!, listenerSpan)).toBe(true);
    expect(platform.vms.callsTo('DELETE', `/vms/${connection.vmID}`).map((call) => call.headers['x-request-id'])).toEqual([requestID]);
  });

  it('continues the removal\'s trace when the billing cancellation runs later, from its outbox row', async () => {
    const plugin = await platform.fixtures.plugin({ kind: 'paid' });
    const subscriptionItemID = `si_${Math.random().toString(36).slice(2)}`;
    platform.billing.addItem(subscriptionItemID);
    const connection = await platform.fixtures.connection(tenantID, plugin.pluginID, { kind: 'paid', subscriptionItemID });
    const requestID = `trace-test-${Math.random().toString(36).slice(2)}`;
    spans.reset();

    expect((await remove(connection.pluginConnectionID, requestID)).response.status).toBe(200);

    const [row] = await platform.dataSource.query('SELECT headers FROM billing_cancellations WHERE subscription_item_id = $1', [subscriptionItemID]);
    expect(row.headers['x-request-id']).toBe(requestID);
    const finished = () => spans.getFinishedSpans();
    await eventually(() => expect(finished().filter((span) => span.name === 'billing cancellation')).toHaveLength(1));
    const [listenerSpan] = finished().filter((span) => span.name === `transport ${DeletePluginConnection.pattern}` && span.kind === SpanKind.SERVER);
    const [cancellationSpan] = finished().filter((span) => span.name === 'billing cancellation');
    expect(cancellationSpan.kind).toBe(SpanKind.CONSUMER);
    expect(traceId(cancellationSpan)).toBe(traceId(listenerSpan));
    expect(cancellationSpan.parentSpanContext?.spanId).toBe(spanId(listenerSpan));
    // The Stripe SDK's call to the billing provider is a span of that trace too.
    const billingCall = finished().find((span) => span.kind === SpanKind.CLIENT && String(span.attributes['url.full'] ?? span.attributes['http.url']).includes(subscriptionItemID));
    expect(billingCall).toBeDefined();
    expect(descendsFrom(billingCall!, cancellationSpan)).toBe(true);
  });

  it('passes on the request id of a request with a body too (read after the request id was set)', async () => {
    const plugin = await platform.fixtures.plugin({ kind: 'plain' });
    const requestID = `trace-test-${Math.random().toString(36).slice(2)}`;
    published.length = 0;

    const response = await platform.api.services.POST('/v1/tenants/{tenantID}/plugins/connections', {
      params: { path: { tenantID } },
      headers: { authorization: `Bearer ${ownerToken}`, 'x-request-id': requestID },
      body: { pluginID: plugin.pluginID },
    });
    expect(response.response.status).toBe(201);
    await eventually(() => expect(published).toHaveLength(1));
    expect(published[0]).toMatchObject({ pattern: InstallPluginConnection.pattern, metadata: { 'x-request-id': requestID } });
  });
});
