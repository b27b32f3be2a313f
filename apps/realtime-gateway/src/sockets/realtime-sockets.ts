import { randomInt, randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { WebSocket } from 'ws';
import { SocketLeases } from '../presence/socket-leases';
import { ClientFrames } from './client-frames';
import { CLOSE_CODES } from './frames';
import { OpenSockets } from './open-sockets';
import { SocketHeartbeat } from './socket-heartbeat';
import { SocketRevocation } from './socket-revocation';
import { SOCKET_SETTINGS, SocketSettings } from './socket-settings';
import { SocketSlots } from './socket-slots';
import { SocketUpgrade } from './socket-upgrade';
import { StreamFanOut } from './stream-fan-out';
import { SocketIdentity, Subscriber } from './subscriber';

/** How long a draining replica waits for its sockets to close. */
const DRAIN_WAIT_MS = 2_000;

/**
 * The gateway's sockets (docs/realtime.md), from the upgrade to the close:
 * each open socket is registered, its frames handed to ClientFrames, and on
 * its close everything it held (slot, fan-out, lease) is released. On stop
 * every socket is drained.
 */
@Injectable()
export class RealtimeSockets implements BeforeApplicationShutdown {
  constructor(
    private readonly upgrades: SocketUpgrade,
    private readonly sockets: OpenSockets,
    private readonly slots: SocketSlots,
    private readonly frames: ClientFrames,
    private readonly heartbeat: SocketHeartbeat,
    private readonly fanOut: StreamFanOut,
    private readonly leases: SocketLeases,
    // Held so the revocation listens from the start, whoever else asks for it.
    _revocation: SocketRevocation,
    @Inject(SOCKET_SETTINGS) private readonly settings: SocketSettings,
  ) {}

  /** Takes the HTTP server's upgrades; starts the heartbeat. */
  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => void this.upgrades.upgrade(request, socket, head, (webSocket, identity) => this.connected(webSocket, identity)));
    this.heartbeat.start();
  }

  get size(): number {
    return this.sockets.size;
  }

  /** Tells every client to reconnect elsewhere, each after its own random delay, and closes (SIGTERM). */
  async beforeApplicationShutdown(): Promise<void> {
    this.upgrades.refuseNew();
    this.heartbeat.stop();
    const closed = [...this.sockets].map((subscriber) => new Promise((resolve) => subscriber.socket.once('close', resolve)));
    for (const subscriber of this.sockets) {
      subscriber.send({ type: 'reconnect', afterMs: randomInt(0, this.settings.drainJitterMs + 1) });
      subscriber.close(CLOSE_CODES.restarting, 'restarting');
    }
    await Promise.race([Promise.all(closed), new Promise((resolve) => setTimeout(resolve, DRAIN_WAIT_MS).unref())]);
    for (const subscriber of this.sockets) subscriber.socket.terminate();
    // The closed sockets' leases are stamped before the database pool closes.
    await this.leases.settled();
  }

  private connected(socket: WebSocket, identity: SocketIdentity): void {
    const subscriber = new Subscriber(randomUUID(), socket, identity, this.settings.bufferLimitBytes);
    this.sockets.add(subscriber);
    let expiry: NodeJS.Timeout | undefined;
    if (identity.credentialExpiresAtMs !== undefined) {
      expiry = setTimeout(() => subscriber.close(CLOSE_CODES.credentialExpired, 'credential expired'), Math.max(0, identity.credentialExpiresAtMs - Date.now()));
      expiry.unref();
    }
    socket.on('pong', () => (subscriber.alive = true));
    socket.on('message', (data, isBinary) => void this.frames.received(subscriber, isBinary ? undefined : data.toString()));
    socket.on('error', () => socket.terminate());
    socket.on('close', () => {
      clearTimeout(expiry);
      subscriber.state = 'closed';
      this.sockets.delete(subscriber);
      this.fanOut.leave(subscriber);
      this.slots.release(identity);
      if (identity.principal.kind === 'operator') this.leases.closed(subscriber.id);
    });
    // An operator's socket holds a lease, from which services-api derives their presence (docs/presence.md).
    if (identity.principal.kind === 'operator') this.leases.opened(subscriber.id, identity.tenantID, identity.principal.operatorID);
    subscriber.send({ type: 'welcome', connectionID: subscriber.id, tenantID: identity.tenantID, heartbeatSeconds: this.settings.heartbeatMs / 1000 });
  }
}
