import { createRealtimeGatewayApp, RealtimeGatewayConfig } from '@apps/realtime-gateway';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { trustedTenantScope } from '@platform/auth';
import { loadConfig } from '@platform/config';
import { OutboxRepository } from '@platform/outbox';
import WebSocket from 'ws';
import { TestPlatform } from '../support/platform';
import { eventually } from '../support/eventually';

/** One gateway replica on loopback, beside the platform's apps, on its database and Redis. */
export interface GatewayReplica {
  app: NestFastifyApplication;
  /** ws://127.0.0.1:<port>/v1/realtime */
  url: string;
  close(): Promise<void>;
}

export async function startGateway(platform: TestPlatform, env: Record<string, string> = {}): Promise<GatewayReplica> {
  // Requests over the socket go to the platform's services-api; a platform without one gets an address nothing answers on.
  const servicesApiUrl = platform.servicesUrl || 'http://127.0.0.1:9';
  const app = await createRealtimeGatewayApp(loadConfig(RealtimeGatewayConfig, { ...platform.env, SERVICES_API_URL: servicesApiUrl, ...env }));
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1').replace(/^http/, 'ws');
  let closed = false;
  return {
    app,
    url: `${url}/v1/realtime`,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
    },
  };
}

/** A frame as the gateway sends it. */
export type Frame = { type: string; [field: string]: unknown };

/** The answer to an upgrade the gateway refused. */
export interface Refusal {
  status: number;
  body: { errors: { statusCode: number; error: string; error_code: number }[] };
}

/**
 * A socket of the tests: every frame it received, in order, and how it
 * closed. `paused` stops reading from the network (a slow consumer).
 */
export class TestSocket {
  readonly frames: Frame[] = [];
  closed: { code: number; reason: string } | undefined;
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.frames.push(JSON.parse(data.toString()) as Frame));
    socket.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
  }

  /** Opens a socket; resolves once the welcome frame arrived, or with the refusal. */
  static open(url: string, options: { headers?: Record<string, string>; query?: Record<string, string> } = {}): Promise<TestSocket | Refusal> {
    const target = new URL(url);
    for (const [name, value] of Object.entries(options.query ?? {})) target.searchParams.set(name, value);
    const socket = new WebSocket(target, { headers: options.headers });
    const client = new TestSocket(socket);
    return new Promise((resolve, reject) => {
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(body) as Refusal['body'] }));
      });
      socket.once('error', reject);
      socket.once('open', () => void eventually(() => client.ofType('welcome')[0] ?? fail('no welcome yet')).then(() => resolve(client), reject));
    });
  }

  static async connect(url: string, options: { headers?: Record<string, string>; query?: Record<string, string> } = {}): Promise<TestSocket> {
    const opened = await TestSocket.open(url, options);
    if (!(opened instanceof TestSocket)) throw new Error(`refused: ${JSON.stringify(opened)}`);
    return opened;
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  ofType(type: string): Frame[] {
    return this.frames.filter((frame) => frame.type === type);
  }

  /** The events received, as `type subject`. */
  eventIDs(): string[] {
    return this.ofType('event').map((frame) => (frame.event as { id: string }).id);
  }

  /**
   * The events received other than presence changes: an operator's socket
   * also receives its tenant's operators coming and going (its own
   * connection among them, docs/presence.md), which a spec about other
   * events checks apart with presenceOperatorIDs().
   */
  eventIDsBesidesPresence(): string[] {
    return this.ofType('event')
      .map((frame) => frame.event as { id: string; type: string })
      .filter((event) => event.type !== 'operator.presenceChanged')
      .map((event) => event.id);
  }

  /** The operators whose presence changes this socket received, each once. */
  presenceOperatorIDs(): string[] {
    const events = this.ofType('event').map((frame) => frame.event as { type: string; data: { operatorID?: unknown } });
    return [...new Set(events.filter((event) => event.type === 'operator.presenceChanged').map((event) => String(event.data.operatorID)))];
  }

  /** Subscribes (or resumes) and waits for the answer. */
  async start(frame: Frame = { type: 'subscribe' }): Promise<Frame> {
    const before = this.frames.length;
    this.send(frame);
    return eventually(() => this.frames.slice(before).find((received) => ['subscribed', 'resync-required', 'error'].includes(received.type)) ?? fail('no answer yet'));
  }

  /** The last offset and epoch received (events, heartbeats, resync), for a resume. */
  position(): { epoch: string; offset: string } {
    const last = this.frames.filter((frame) => typeof frame.offset === 'string').at(-1);
    if (!last) throw new Error('no position yet');
    return { epoch: last.epoch as string, offset: last.offset as string };
  }

  async closedWith(): Promise<{ code: number; reason: string }> {
    return eventually(() => this.closed ?? fail('still open'));
  }

  close(): void {
    this.socket.terminate();
  }
}

function fail(message: string): never {
  throw new Error(message);
}

/** A conversation event as "Conversations in motion" emits it, with the visibility snapshot of its commit. */
export interface ConversationEvent {
  type: string;
  sessionID: string;
  inboxID?: string;
  pluginConnectionID?: string | null;
  listed?: boolean;
  operatorID?: string | null;
  participantIDs?: string[];
  extra?: Record<string, unknown>;
}

/** Appends outbox events as a change's transaction would (libs/outbox), and answers their ids. */
export async function appendEvents(platform: TestPlatform, tenantID: string, events: ConversationEvent[]): Promise<string[]> {
  const repository = new OutboxRepository(platform.dataSource);
  return platform.dataSource.transaction(async (runner) => {
    for (const event of events) {
      await repository.append(runner, trustedTenantScope(tenantID), {
        type: event.type,
        version: 1,
        orderingKey: event.type === 'notifications.read' ? `operator:${event.operatorID}` : `session:${event.sessionID}`,
        data: {
          sessionID: event.sessionID,
          inboxID: event.inboxID ?? '00000000-0000-4000-8000-000000000001',
          pluginConnectionID: event.pluginConnectionID ?? null,
          listed: event.listed ?? false,
          operatorID: event.operatorID ?? null,
          participantIDs: event.participantIDs ?? [],
          ...event.extra,
        },
        emittedBy: 'services-api',
        headers: null,
      });
    }
    // This transaction's rows only (xmin): an app may append the tenant's own events (a presence change) meanwhile.
    const rows: { id: string }[] = await runner.query(
      `SELECT id FROM webhook_events WHERE tenant_id = $1 AND xmin = pg_current_xact_id()::xid ORDER BY occurred_at, id`,
      [tenantID],
    );
    return rows.map((row) => row.id);
  });
}
