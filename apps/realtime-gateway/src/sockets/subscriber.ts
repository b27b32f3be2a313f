import type { Duplex } from 'node:stream';
import type { Principal } from '@platform/auth';
import type WebSocket from 'ws';
import { compareOffsets } from '../streams/offsets';
import { isLapsed, LapsedEntry, StreamRead } from '../streams/streamed-event';
import { CLOSE_CODES, FramedEntry, framed, ServerFrame } from './frames';
import { Audience, mayReceive } from './visibility';

/** Who holds a socket, as established at the upgrade. */
export interface SocketIdentity {
  tenantID: string;
  principal: Principal;
  audience: Audience;
  /** The standing whose invalidation (libs/auth StandingInvalidations) makes this socket be checked again: `operator:<id>` or `plugin:<pluginID>`. */
  standingSubject: string;
  /** What the per-principal socket limit counts: the principal on this tenant. */
  limitKey: string;
  /** When the credential lapses (an operator's token), in ms since the epoch; the socket closes then. */
  credentialExpiresAtMs?: number;
  /**
   * A plugin connection's `Authorization` header, as presented at the upgrade:
   * sent with its requests over the socket to services-api, and nowhere else
   * (channel-request-forwarder.ts). Held in memory for the socket's life only.
   */
  forwardedCredential?: string;
}

/** Live entries a socket catching up may hold back at most; past that it is a slow consumer. */
const MAX_HELD_BACK = 10_000;
/** Bytes of frames gathered into one write at most (deliverAll). */
const CORK_BYTES = 64 * 1024;
/** How long a replay waits for a client to read its buffer down. */
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * One socket's delivery state. Idle until the client subscribes or resumes;
 * then catching up (replaying the window, holding back the live entries that
 * arrive meanwhile); then live. Every entry is delivered at most once, in
 * offset order: an entry at or before the last offset delivered is skipped.
 */
export class Subscriber {
  state: 'idle' | 'catching-up' | 'live' | 'closed' = 'idle';
  epoch = '';
  /** The last offset this socket has passed (delivered, or skipped as not visible to it). */
  offset = '';
  /** The offset last told to the client (in an event or heartbeat frame). */
  private toldOffset = '';
  /** The last frame that told an offset was a resync: entries that lapsed one after another make one resync, not one each. */
  private toldResync = false;
  private heldBack: (FramedEntry | LapsedEntry)[] = [];
  /** Frames are being gathered into one write (deliverAll): the buffer is checked once they leave. */
  private corked = false;
  /** Seen a pong or a frame since the last heartbeat. */
  alive = true;
  framesInWindow = 0;
  windowStartedAtMs = Date.now();

  constructor(
    readonly id: string,
    readonly socket: WebSocket,
    readonly identity: SocketIdentity,
    private readonly bufferLimitBytes: number,
  ) {}

  send(frame: ServerFrame): void {
    if (this.state === 'closed') return;
    this.socket.send(JSON.stringify(frame));
    if (frame.type === 'event' || frame.type === 'resync-required' || frame.type === 'subscribed') {
      this.toldOffset = frame.offset;
      this.toldResync = frame.type === 'resync-required';
    }
    this.checkBuffer();
  }

  /** An event frame, encoded already (framed): the same bytes go to every socket, as a text frame. */
  private sendEvent(entry: FramedEntry): void {
    this.socket.send(entry.frame, { binary: false });
    this.toldOffset = entry.offset;
    this.toldResync = false;
    this.checkBuffer();
  }

  /** The client reads slower than events arrive: close rather than buffer without bound; it resumes from its last offset. */
  private checkBuffer(): void {
    if (!this.corked && this.state !== 'closed' && this.socket.bufferedAmount > this.bufferLimitBytes) this.close(CLOSE_CODES.slowConsumer, 'slow consumer');
  }

  close(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.heldBack = [];
    this.socket.close(code, reason);
  }

  /** The entries of one read of the tenant's stream, in offset order. */
  receiveLive(entries: readonly (FramedEntry | LapsedEntry)[]): void {
    if (this.state === 'live') return this.deliverAll(entries);
    for (const entry of entries) {
      if (this.state !== 'catching-up') return;
      if (this.heldBack.length >= MAX_HELD_BACK) return this.close(CLOSE_CODES.slowConsumer, 'slow consumer');
      this.heldBack.push(entry);
    }
  }

  /**
   * Delivers entries with the connection corked, so that their frames leave
   * in one write (one system call) rather than one each: a read brings every
   * entry the relay appended since the last, and a write per frame was most
   * of the fan-out's CPU (docs/benchmarks.md#real-time). The frames are unchanged; only
   * their grouping into TCP segments differs. At most CORK_BYTES (or half
   * the buffer limit) are gathered at a time: what the kernel does not take
   * at once counts as waiting until all of it is sent, and a large gathering
   * must not pass for a slow consumer.
   */
  private deliverAll(entries: readonly (FramedEntry | LapsedEntry)[]): void {
    const connection = entries.length > 1 ? connectionOf(this.socket) : undefined;
    if (!connection) {
      for (const entry of entries) this.deliver(entry);
      return;
    }
    const most = Math.min(CORK_BYTES, this.bufferLimitBytes / 2);
    let gathered = 0;
    connection.cork();
    this.corked = true;
    try {
      for (const entry of entries) {
        if (this.state === 'closed') break;
        this.deliver(entry);
        if (!isLapsed(entry)) gathered += entry.frame.length;
        if (gathered >= most) {
          connection.uncork();
          this.corked = false;
          this.checkBuffer();
          gathered = 0;
          connection.cork();
          this.corked = true;
        }
      }
    } finally {
      this.corked = false;
      connection.uncork();
    }
    this.checkBuffer();
  }

  /** Catching up is over: what arrived live meanwhile goes out, then everything else as it comes. */
  goLive(): void {
    if (this.state !== 'catching-up') return;
    const held = this.heldBack;
    this.heldBack = [];
    this.state = 'live';
    this.deliverAll(held);
  }

  /**
   * Delivers one entry if it is new to this socket and visible to it. An
   * entry that lapsed is an event this socket missed: the client is told to
   * resync there, never left with a silent gap.
   */
  deliver(entry: StreamRead | FramedEntry): void {
    if (this.state === 'closed' || (this.offset && compareOffsets(entry.offset, this.offset) <= 0)) return;
    this.offset = entry.offset;
    if (isLapsed(entry)) {
      if (!this.toldResync) this.send({ type: 'resync-required', epoch: this.epoch, offset: entry.offset });
      return;
    }
    if (entry.epoch !== this.epoch) {
      // The stream was lost and begun again (Redis restarted empty): what came between is unknown.
      this.epoch = entry.epoch;
      this.send({ type: 'resync-required', epoch: entry.epoch, offset: entry.offset });
      return;
    }
    if (mayReceive(this.identity.audience, entry.event)) this.sendEvent('frame' in entry ? entry : framed(entry));
  }

  /**
   * Waits until the socket's buffer is below half its limit, so a replay
   * (which sends as fast as Redis answers) never fills it: false when the
   * socket closed meanwhile, or the client read nothing for DRAIN_TIMEOUT_MS
   * (then it is a slow consumer).
   */
  async drained(): Promise<boolean> {
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    while (this.state !== 'closed' && this.socket.bufferedAmount > this.bufferLimitBytes / 2) {
      if (Date.now() > deadline) {
        this.close(CLOSE_CODES.slowConsumer, 'slow consumer');
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return this.state !== 'closed';
  }

  /** The offset passed but not told (events this socket may not see): sent with the heartbeat so a resume stays inside the window. */
  untoldOffset(): string | undefined {
    return this.state === 'live' && this.offset !== this.toldOffset ? this.offset : undefined;
  }

  markTold(offset: string): void {
    this.toldOffset = offset;
  }
}

/**
 * The connection under a WebSocket: ws keeps the upgraded socket as
 * `_socket` (and corks it itself around each frame's header and payload);
 * undefined if a later ws stops doing so, and frames then go one write each.
 */
function connectionOf(socket: WebSocket): Pick<Duplex, 'cork' | 'uncork'> | undefined {
  const connection = (socket as unknown as { _socket?: Partial<Duplex> })._socket;
  return typeof connection?.cork === 'function' && typeof connection.uncork === 'function' ? (connection as Duplex) : undefined;
}
