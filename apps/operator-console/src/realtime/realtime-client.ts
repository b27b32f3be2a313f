/**
 * The console's socket to the real-time gateway (docs/realtime.md): a ticket
 * asked of services-api for each socket (the operator token never goes in a
 * URL), `subscribe` on the first socket and `resume` from the last position
 * after any drop, on whichever replica answers. It knows nothing of React:
 * what arrives goes to the handlers, which update the query cache.
 */

/** The stream position every event, heartbeat, subscribed and resync-required frame carries. */
export interface StreamPosition {
  epoch: string;
  offset: string;
}

/** A conversation or notification event as the outbox recorded it. */
export interface RealtimeEvent {
  id: string;
  type: string;
  occurredAt: string;
  subject: string;
  data: Record<string, unknown>;
}

/** What the console shows of the socket: live, (re)connecting after a drop, or stopped for good. */
export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'revoked' | 'stopped';

/** The part of the browser's WebSocket the client uses, so tests can hand it another. */
export interface SocketLike {
  send(text: string): void;
  close(code?: number): void;
  onmessage: ((message: { data: unknown }) => void) | null;
  onclose: ((close: { code: number }) => void) | null;
  onerror: ((error: unknown) => void) | null;
}

export interface RealtimeHandlers {
  /** One event, never the same `event.id` twice. */
  onEvent(event: RealtimeEvent): void;
  /**
   * What the client holds may be stale: after the first `subscribed` (events
   * before it were not delivered) and on `resync-required`. Fetch the state over REST.
   */
  onResync(): void;
  onStateChange(state: ConnectionState): void;
}

export interface RealtimeClientOptions extends RealtimeHandlers {
  /** ws(s)://host[:port]: the gateway's origin; the client adds `/v1/realtime?ticket=`. */
  gatewayUrl: string;
  /** POST /v1/tenants/{tenantID}/realtime-tickets: a new ticket for each socket. */
  requestTicket(): Promise<string>;
  openSocket(url: string): SocketLike;
  /** The delays between attempts; defaults to the browser's timers. */
  timers?: Timers;
  /** Delay before the n-th consecutive retry (n from 1), in ms; defaults to a capped exponential backoff with jitter. */
  backoff?: (attempt: number) => number;
}

export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const browserTimers: Timers = { set: (callback, ms) => setTimeout(callback, ms), clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) };

/** 0.5 s doubling to 15 s, each delay drawn between half and all of it so a replica's clients do not come back at once. */
export function defaultBackoff(attempt: number): number {
  const ceiling = Math.min(15_000, 500 * 2 ** Math.min(attempt - 1, 5));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Event ids remembered to drop a repeat (the relay delivers at least once). */
const REMEMBERED_EVENT_IDS = 2_000;

/** Closed by the gateway: the operator's access to the tenant was revoked; trying again would be refused. */
const CLOSE_REVOKED = 4403;

export class RealtimeClient {
  private socket: SocketLike | undefined;
  private position: StreamPosition | undefined;
  private readonly seen = new Set<string>();
  private retryTimer: unknown;
  /** Consecutive attempts that did not reach `subscribed`. */
  private failures = 0;
  /** Set by a `reconnect` frame: the replica is stopping and chose when this client comes back. */
  private reconnectAfterMs: number | undefined;
  private state: ConnectionState = 'stopped';
  private running = false;
  private readonly timers: Timers;
  private readonly backoff: (attempt: number) => number;

  constructor(private readonly options: RealtimeClientOptions) {
    this.timers = options.timers ?? browserTimers;
    this.backoff = options.backoff ?? defaultBackoff;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.connect();
  }

  /** Closes the socket for good (sign-out, another tenant). */
  stop(): void {
    this.running = false;
    this.timers.clear(this.retryTimer);
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      socket.onclose = null;
      socket.close(1000);
    }
    this.setState('stopped');
  }

  /** The last position received: what the next socket resumes from. */
  lastPosition(): StreamPosition | undefined {
    return this.position;
  }

  private async connect(): Promise<void> {
    this.setState(this.position || this.failures > 0 ? 'reconnecting' : 'connecting');
    let ticket: string;
    try {
      ticket = await this.options.requestTicket();
    } catch {
      this.retryLater();
      return;
    }
    if (!this.running) return;
    const socket = this.options.openSocket(`${this.options.gatewayUrl.replace(/\/$/, '')}/v1/realtime?ticket=${encodeURIComponent(ticket)}`);
    this.socket = socket;
    socket.onmessage = (message) => this.receive(socket, message.data);
    socket.onerror = () => undefined; // a close follows every error
    socket.onclose = ({ code }) => this.closed(socket, code);
  }

  private receive(socket: SocketLike, data: unknown): void {
    if (socket !== this.socket || typeof data !== 'string') return;
    let frame: { type?: unknown; [field: string]: unknown };
    try {
      frame = JSON.parse(data) as typeof frame;
    } catch {
      return;
    }
    switch (frame.type) {
      case 'welcome':
        socket.send(JSON.stringify(this.position ? { type: 'resume', ...this.position } : { type: 'subscribe' }));
        return;
      case 'subscribed': {
        const fresh = this.position === undefined;
        this.keepPosition(frame);
        this.failures = 0;
        this.reconnectAfterMs = undefined;
        this.setState('live');
        // Before a first subscribe nothing was delivered: what REST answered may already be behind.
        if (fresh) this.options.onResync();
        return;
      }
      case 'event': {
        this.keepPosition(frame);
        const event = frame.event as RealtimeEvent | undefined;
        if (!event || this.seen.has(event.id)) return;
        this.remember(event.id);
        this.options.onEvent(event);
        return;
      }
      case 'heartbeat':
        this.keepPosition(frame);
        return;
      case 'resync-required':
        // Also the answer to a resume the gateway cannot replay: delivery goes on after this position.
        this.keepPosition(frame);
        this.failures = 0;
        this.setState('live');
        this.options.onResync();
        return;
      case 'reconnect':
        this.reconnectAfterMs = typeof frame.afterMs === 'number' ? frame.afterMs : undefined;
        return;
      default:
        return;
    }
  }

  private closed(socket: SocketLike, code: number): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    if (!this.running) return;
    if (code === CLOSE_REVOKED) {
      this.running = false;
      this.setState('revoked');
      return;
    }
    this.retryLater();
  }

  private retryLater(): void {
    if (!this.running) return;
    this.failures += 1;
    this.setState('reconnecting');
    const delay = this.reconnectAfterMs ?? this.backoff(this.failures);
    this.reconnectAfterMs = undefined;
    this.timers.clear(this.retryTimer);
    this.retryTimer = this.timers.set(() => void this.connect(), delay);
  }

  private keepPosition(frame: Record<string, unknown>): void {
    if (typeof frame.epoch === 'string' && typeof frame.offset === 'string') this.position = { epoch: frame.epoch, offset: frame.offset };
  }

  private remember(eventID: string): void {
    this.seen.add(eventID);
    if (this.seen.size > REMEMBERED_EVENT_IDS) this.seen.delete(this.seen.values().next().value as string);
  }

  private setState(state: ConnectionState): void {
    if (state === this.state) return;
    this.state = state;
    this.options.onStateChange(state);
  }
}
