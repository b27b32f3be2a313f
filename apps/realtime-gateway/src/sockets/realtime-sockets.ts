import { randomInt, randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { CredentialStore, ForgottenStanding, StandingInvalidations, TenantAccessService } from '@platform/auth';
import { AppException, rawErrorResponse, toAppException } from '@platform/errors';
import { PlatformMetrics } from '@platform/observability';
import { WebSocket, WebSocketServer } from 'ws';
import { SocketLeases } from '../presence/socket-leases';
import { TenantStreams } from '../streams/tenant-streams';
import { ChannelRequestForwarder } from './channel-request-forwarder';
import { ClientFrame, CLOSE_CODES, parseClientFrame } from './frames';
import { SOCKET_SETTINGS, SocketSettings } from './socket-settings';
import { StreamFanOut } from './stream-fan-out';
import { SocketIdentity, Subscriber } from './subscriber';
import { REALTIME_PATH, UpgradeAuthentication } from './upgrade-authentication';

/** Entries one replay read takes. */
const REPLAY_BATCH = 500;
/** Sockets checked again at once after the invalidation listener reconnected. */
const RECHECK_BATCH = 100;
/** How long a draining replica waits for its sockets to close. */
const DRAIN_WAIT_MS = 2_000;

/**
 * The gateway's sockets (docs/realtime.md): the upgrade (origin, credential,
 * limits), the client's frames, heartbeats, revocation and the drain on stop.
 */
@Injectable()
export class RealtimeSockets implements BeforeApplicationShutdown {
  private readonly logger = new Logger(RealtimeSockets.name);
  private readonly server: WebSocketServer;
  private readonly subscribers = new Set<Subscriber>();
  private readonly perPrincipal = new Map<string, number>();
  private readonly perTenant = new Map<string, number>();
  private readonly allowedOrigins: Set<string>;
  private heartbeat: NodeJS.Timeout | undefined;
  private draining = false;

  constructor(
    private readonly authentication: UpgradeAuthentication,
    private readonly fanOut: StreamFanOut,
    private readonly streams: TenantStreams,
    private readonly access: TenantAccessService,
    private readonly credentials: CredentialStore,
    private readonly requests: ChannelRequestForwarder,
    private readonly leases: SocketLeases,
    invalidations: StandingInvalidations,
    metrics: PlatformMetrics,
    @Inject(SOCKET_SETTINGS) private readonly settings: SocketSettings,
  ) {
    this.allowedOrigins = new Set(settings.allowedOrigins);
    // perMessageDeflate off: compression costs memory per socket (about 300 KB with zlib's defaults) and CPU per frame.
    this.server = new WebSocketServer({ noServer: true, maxPayload: settings.maxFrameBytes, perMessageDeflate: false, clientTracking: false });
    // What an autoscaler on connections reads (docs/metrics.md).
    metrics.addScrapeGauge({
      name: 'realtime_sockets',
      help: 'Sockets open on this replica, by kind of principal.',
      labelNames: ['principal'],
      read: () => {
        const counts = new Map<string, number>();
        for (const subscriber of this.subscribers) counts.set(subscriber.identity.principal.kind, (counts.get(subscriber.identity.principal.kind) ?? 0) + 1);
        return [...counts].map(([principal, value]) => ({ labels: { principal }, value }));
      },
    });
    invalidations.onChange(
      (standing) => this.recheckStanding(standing),
      () => this.recheckAll(),
    );
  }

  /** Takes the HTTP server's upgrades; starts the heartbeat. */
  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => void this.upgrade(request, socket, head));
    this.heartbeat = setInterval(() => this.beat(), this.settings.heartbeatMs);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.subscribers.size;
  }

  /** Tells every client to reconnect elsewhere, each after its own random delay, and closes (SIGTERM). */
  async beforeApplicationShutdown(): Promise<void> {
    this.draining = true;
    clearInterval(this.heartbeat);
    const closed = [...this.subscribers].map((subscriber) => new Promise((resolve) => subscriber.socket.once('close', resolve)));
    for (const subscriber of this.subscribers) {
      subscriber.send({ type: 'reconnect', afterMs: randomInt(0, this.settings.drainJitterMs + 1) });
      subscriber.close(CLOSE_CODES.restarting, 'restarting');
    }
    await Promise.race([Promise.all(closed), new Promise((resolve) => setTimeout(resolve, DRAIN_WAIT_MS).unref())]);
    for (const subscriber of this.subscribers) subscriber.socket.terminate();
    // The closed sockets' leases are stamped before the database pool closes.
    await this.leases.settled();
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    try {
      const url = new URL(request.url ?? '/', 'http://gateway');
      if (url.pathname !== REALTIME_PATH) throw new AppException('RouteNotFound');
      if (this.draining) throw new AppException('InternalServiceUnavailable');
      // A browser always sends Origin: a page of another origin must not use the operator's ticket.
      const origin = request.headers.origin;
      if (origin !== undefined && !this.allowedOrigins.has(origin)) throw new AppException('Forbidden');
      assertWebSocketHandshake(request);
      const identity = await this.authentication.identify(request, url.searchParams);
      this.checkSlots(identity);
      // Counted once the socket exists: a handshake the library refuses after this holds no slot.
      this.server.handleUpgrade(request, socket, head, (webSocket) => {
        this.claimSlot(identity);
        this.connected(webSocket, identity);
      });
    } catch (error) {
      const refusal = toAppException(error) ?? new AppException('Unknown', { cause: error });
      if (refusal.status >= 500) this.logger.warn({ err: error }, 'socket refused');
      if (socket.writable) socket.end(rawErrorResponse(refusal));
      else socket.destroy();
    }
  }

  /** 429 1071 when the principal or the tenant holds as many sockets as it may on this replica. */
  private checkSlots(identity: SocketIdentity): void {
    const principalKey = `${identity.tenantID} ${identity.limitKey}`;
    if ((this.perPrincipal.get(principalKey) ?? 0) >= this.settings.maxSocketsPerPrincipal) throw new AppException('TooManyRequests', { retryAfterSeconds: 1 });
    if ((this.perTenant.get(identity.tenantID) ?? 0) >= this.settings.maxSocketsPerTenant) throw new AppException('TooManyRequests', { retryAfterSeconds: 1 });
  }

  /** Counts the socket against its limits. */
  private claimSlot(identity: SocketIdentity): void {
    const principalKey = `${identity.tenantID} ${identity.limitKey}`;
    this.perPrincipal.set(principalKey, (this.perPrincipal.get(principalKey) ?? 0) + 1);
    this.perTenant.set(identity.tenantID, (this.perTenant.get(identity.tenantID) ?? 0) + 1);
  }

  private releaseSlot(identity: SocketIdentity): void {
    const principalKey = `${identity.tenantID} ${identity.limitKey}`;
    decrement(this.perPrincipal, principalKey);
    decrement(this.perTenant, identity.tenantID);
  }

  private connected(socket: WebSocket, identity: SocketIdentity): void {
    const subscriber = new Subscriber(randomUUID(), socket, identity, this.settings.bufferLimitBytes);
    this.subscribers.add(subscriber);
    let expiry: NodeJS.Timeout | undefined;
    if (identity.credentialExpiresAtMs !== undefined) {
      expiry = setTimeout(() => subscriber.close(CLOSE_CODES.credentialExpired, 'credential expired'), Math.max(0, identity.credentialExpiresAtMs - Date.now()));
      expiry.unref();
    }
    socket.on('pong', () => (subscriber.alive = true));
    socket.on('message', (data, isBinary) => void this.received(subscriber, isBinary ? undefined : data.toString()));
    socket.on('error', () => socket.terminate());
    socket.on('close', () => {
      clearTimeout(expiry);
      subscriber.state = 'closed';
      this.subscribers.delete(subscriber);
      this.fanOut.leave(subscriber);
      this.releaseSlot(identity);
      if (identity.principal.kind === 'operator') this.leases.closed(subscriber.id);
    });
    // An operator's socket holds a lease, from which services-api derives their presence (docs/presence.md).
    if (identity.principal.kind === 'operator') this.leases.opened(subscriber.id, identity.tenantID, identity.principal.operatorID);
    subscriber.send({ type: 'welcome', connectionID: subscriber.id, tenantID: identity.tenantID, heartbeatSeconds: this.settings.heartbeatMs / 1000 });
  }

  private async received(subscriber: Subscriber, text: string | undefined): Promise<void> {
    subscriber.alive = true;
    const now = Date.now();
    if (now - subscriber.windowStartedAtMs >= 10_000) {
      subscriber.windowStartedAtMs = now;
      subscriber.framesInWindow = 0;
    }
    if (++subscriber.framesInWindow > this.settings.maxFramesPer10s) return subscriber.close(CLOSE_CODES.tooManyFrames, 'too many frames');
    try {
      if (text === undefined) throw AppException.validation([{ field: 'frame', received: 'binary', allowed: 'a JSON text frame' }]);
      const frame = parseClientFrame(text);
      if (frame.type === 'ping') return subscriber.send({ type: 'pong' });
      if (frame.type === 'activity') return this.activity(subscriber);
      // A request (docs/realtime.md, Requests over the socket) is answered on its own, whatever the delivery's state.
      if ('requestID' in frame) return void this.requests.handle(subscriber, frame);
      if (subscriber.state !== 'idle') throw AppException.validation([{ field: 'type', received: frame.type, allowed: 'ping or a request (the socket is subscribed already)' }]);
      await this.subscribe(subscriber, frame);
    } catch (error) {
      const refusal = toAppException(error);
      if (!refusal) this.logger.error({ err: error }, 'socket frame failed');
      subscriber.send({ type: 'error', error: (refusal ?? new AppException('Unknown')).toBody() });
      // A subscription that failed half-way (Redis away) starts over: the client may subscribe or resume again.
      if (subscriber.state === 'catching-up') {
        this.fanOut.leave(subscriber);
        subscriber.state = 'idle';
      }
    }
  }

  /**
   * The client's user was active (docs/presence.md): the socket's own lease
   * carries it, and nothing else. Only an operator's socket has a lease.
   */
  private activity(subscriber: Subscriber): void {
    if (subscriber.identity.principal.kind !== 'operator') throw AppException.validation([{ field: 'type', received: 'activity', allowed: 'activity from an operator\'s socket' }]);
    this.leases.active(subscriber.id);
  }

  /**
   * Starts delivery: from now (`subscribe`), or after the client's last
   * offset (`resume`) when that offset is still in the same stream and what
   * follows it still in the window (TenantStreams.resumableAfter); otherwise
   * `resync-required` and delivery from now.
   */
  private async subscribe(subscriber: Subscriber, frame: Exclude<ClientFrame, { type: 'ping' } | { type: 'activity' }>): Promise<void> {
    const tenantID = subscriber.identity.tenantID;
    subscriber.state = 'catching-up';
    // Joined first, so that what arrives while the window is replayed is held back, not lost.
    await this.fanOut.join(subscriber);
    const epoch = await this.streams.epochOf(tenantID);
    subscriber.epoch = epoch;
    const resumable = frame.type === 'resume' && frame.epoch === epoch && (await this.streams.resumableAfter(tenantID, frame.offset));
    if (frame.type === 'resume' && !resumable) {
      subscriber.offset = await this.streams.lastOffset(tenantID);
      subscriber.send({ type: 'resync-required', epoch, offset: subscriber.offset });
    } else if (frame.type === 'resume') {
      subscriber.offset = frame.offset;
      subscriber.send({ type: 'subscribed', epoch, offset: frame.offset });
      await this.replay(subscriber);
    } else {
      subscriber.offset = await this.streams.lastOffset(tenantID);
      subscriber.send({ type: 'subscribed', epoch, offset: subscriber.offset });
    }
    subscriber.goLive();
  }

  /** Delivers the stream after the subscriber's offset, up to its tail, as fast as the client reads it. */
  private async replay(subscriber: Subscriber): Promise<void> {
    let from = subscriber.offset;
    for (;;) {
      if (subscriber.state !== 'catching-up') return;
      const { entries, last } = await this.streams.after(subscriber.identity.tenantID, from, REPLAY_BATCH);
      for (const entry of entries) {
        subscriber.deliver(entry);
        if (!(await subscriber.drained())) return;
      }
      if (last === from) return;
      from = last;
    }
  }

  /** Pings every socket; closes those that answered nothing since the last beat; tells idle ones the offset they passed. */
  private beat(): void {
    for (const subscriber of this.subscribers) {
      if (!subscriber.alive) {
        subscriber.close(CLOSE_CODES.idle, 'idle');
        subscriber.socket.terminate();
        continue;
      }
      subscriber.alive = false;
      subscriber.socket.ping();
      const untold = subscriber.untoldOffset();
      if (untold) {
        subscriber.send({ type: 'heartbeat', epoch: subscriber.epoch, offset: untold });
        subscriber.markTold(untold);
      }
    }
  }

  /** A standing changed somewhere: the sockets it concerns are checked again, and closed if refused now. */
  private recheckStanding({ tenantID, subject }: ForgottenStanding): void {
    for (const subscriber of this.ofTenant(tenantID)) {
      if (subscriber.identity.standingSubject === subject) void this.recheck(subscriber);
    }
  }

  /**
   * Messages may have been missed (the listener reconnected): every socket is
   * checked again, a batch at a time, so a reconnection does not send every
   * socket's lookup to Redis at once.
   */
  private recheckAll(): void {
    const all = [...this.subscribers];
    void (async () => {
      for (let index = 0; index < all.length; index += RECHECK_BATCH) {
        await Promise.all(all.slice(index, index + RECHECK_BATCH).map((subscriber) => this.recheck(subscriber)));
      }
    })();
  }

  private ofTenant(tenantID: string): Subscriber[] {
    return [...this.subscribers].filter((subscriber) => subscriber.identity.tenantID === tenantID);
  }

  private async recheck(subscriber: Subscriber): Promise<void> {
    const { principal, tenantID } = subscriber.identity;
    try {
      if (principal.kind === 'pluginConnection') {
        if (!(await this.credentials.findLiveConnection(principal.pluginConnectionID))) subscriber.close(CLOSE_CODES.accessRevoked, 'access revoked');
        return;
      }
      await this.access.check(principal, tenantID);
    } catch (error) {
      const refusal = toAppException(error);
      // Refused: access is gone. Unavailable (Redis or PostgreSQL away): the socket stays; it is checked again at the next change or reset.
      if (refusal && refusal.status < 500) subscriber.close(CLOSE_CODES.accessRevoked, 'access revoked');
    }
  }
}

/**
 * The handshake the WebSocket library would refuse with a bare 400, refused
 * here in the envelope instead (400 1002 on the header at fault): GET,
 * `Upgrade: websocket`, a 16-byte base64 `Sec-WebSocket-Key`, version 13 or 8.
 */
function assertWebSocketHandshake(request: IncomingMessage): void {
  const refuse = (field: string, allowed: string) => {
    throw AppException.validation([{ field, received: String(request.headers[field] ?? request.method), allowed }]);
  };
  if (request.method !== 'GET') refuse('method', 'GET');
  if (request.headers.upgrade?.toLowerCase() !== 'websocket') refuse('upgrade', 'websocket');
  if (!/^[+/0-9A-Za-z]{22}==$/.test(request.headers['sec-websocket-key'] ?? '')) refuse('sec-websocket-key', '16 random bytes, base64');
  if (!['8', '13'].includes(request.headers['sec-websocket-version'] ?? '')) refuse('sec-websocket-version', '13');
}

function decrement(counts: Map<string, number>, key: string): void {
  const count = (counts.get(key) ?? 1) - 1;
  if (count <= 0) counts.delete(key);
  else counts.set(key, count);
}
