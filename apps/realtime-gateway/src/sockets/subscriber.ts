import type { Principal } from '@platform/auth';
import type WebSocket from 'ws';
import { compareOffsets } from '../streams/offsets';
import { StreamEntry } from '../streams/streamed-event';
import { CLOSE_CODES, ServerFrame } from './frames';
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
  private heldBack: StreamEntry[] = [];
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
    if (frame.type === 'event' || frame.type === 'resync-required' || frame.type === 'subscribed') this.toldOffset = frame.offset;
    // The client reads slower than events arrive: close rather than buffer without bound; it resumes from its last offset.
    if (this.socket.bufferedAmount > this.bufferLimitBytes) this.close(CLOSE_CODES.slowConsumer, 'slow consumer');
  }

  close(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.heldBack = [];
    this.socket.close(code, reason);
  }

  /** An entry read live from the tenant's stream. */
  receiveLive(entry: StreamEntry): void {
    if (this.state === 'live') this.deliver(entry);
    else if (this.state === 'catching-up') {
      if (this.heldBack.length >= MAX_HELD_BACK) return this.close(CLOSE_CODES.slowConsumer, 'slow consumer');
      this.heldBack.push(entry);
    }
  }

  /** Catching up is over: what arrived live meanwhile goes out, then everything else as it comes. */
  goLive(): void {
    if (this.state !== 'catching-up') return;
    const held = this.heldBack;
    this.heldBack = [];
    this.state = 'live';
    for (const entry of held) this.deliver(entry);
  }

  /** Delivers one entry if it is new to this socket and visible to it. */
  deliver(entry: StreamEntry): void {
    if (this.state === 'closed' || (this.offset && compareOffsets(entry.offset, this.offset) <= 0)) return;
    this.offset = entry.offset;
    if (entry.epoch !== this.epoch) {
      // The stream was lost and begun again (Redis restarted empty): what came between is unknown.
      this.epoch = entry.epoch;
      this.send({ type: 'resync-required', epoch: entry.epoch, offset: entry.offset });
      return;
    }
    if (mayReceive(this.identity.audience, entry.event)) this.send({ type: 'event', epoch: entry.epoch, offset: entry.offset, event: entry.event });
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
