import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppException, rawErrorResponse, toAppException } from '@platform/errors';
import { WebSocket, WebSocketServer } from 'ws';
import { SOCKET_SETTINGS, SocketSettings } from './socket-settings';
import { SocketSlots } from './socket-slots';
import { SocketIdentity } from './subscriber';
import { REALTIME_PATH, UpgradeAuthentication } from './upgrade-authentication';

/**
 * The upgrade (docs/realtime.md): path, drain, origin, handshake, credential
 * and limits are checked in that order; a refusal is an HTTP answer in the
 * error envelope, never a bare 400. An accepted socket holds its slot.
 */
@Injectable()
export class SocketUpgrade {
  private readonly logger = new Logger(SocketUpgrade.name);
  private readonly server: WebSocketServer;
  private readonly allowedOrigins: Set<string>;
  private draining = false;

  constructor(
    private readonly authentication: UpgradeAuthentication,
    private readonly slots: SocketSlots,
    @Inject(SOCKET_SETTINGS) settings: SocketSettings,
  ) {
    this.allowedOrigins = new Set(settings.allowedOrigins);
    // perMessageDeflate off: compression costs memory per socket (about 300 KB with zlib's defaults) and CPU per frame.
    this.server = new WebSocketServer({ noServer: true, maxPayload: settings.maxFrameBytes, perMessageDeflate: false, clientTracking: false });
  }

  /** From now on every upgrade is refused with 503 (the replica is stopping). */
  refuseNew(): void {
    this.draining = true;
  }

  async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, opened: (webSocket: WebSocket, identity: SocketIdentity) => void): Promise<void> {
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
      this.slots.check(identity);
      // Counted once the socket exists: a handshake the library refuses after this holds no slot.
      this.server.handleUpgrade(request, socket, head, (webSocket) => {
        this.slots.claim(identity);
        opened(webSocket, identity);
      });
    } catch (error) {
      const refusal = toAppException(error) ?? new AppException('Unknown', { cause: error });
      if (refusal.status >= 500) this.logger.warn({ err: error }, 'socket refused');
      if (socket.writable) socket.end(rawErrorResponse(refusal));
      else socket.destroy();
    }
  }
}

/**
 * The handshake the WebSocket library would refuse with a bare 400, refused
 * here in the envelope instead (400 1002 on the header at fault): GET,
 * `Upgrade: websocket`, a 16-byte base64 `Sec-WebSocket-Key`, version 13 or 8.
 */
export function assertWebSocketHandshake(request: Pick<IncomingMessage, 'method' | 'headers'>): void {
  const refuse = (field: string, allowed: string) => {
    throw AppException.validation([{ field, received: String(request.headers[field] ?? request.method), allowed }]);
  };
  if (request.method !== 'GET') refuse('method', 'GET');
  if (request.headers.upgrade?.toLowerCase() !== 'websocket') refuse('upgrade', 'websocket');
  if (!/^[+/0-9A-Za-z]{22}==$/.test(request.headers['sec-websocket-key'] ?? '')) refuse('sec-websocket-key', '16 random bytes, base64');
  if (!['8', '13'].includes(request.headers['sec-websocket-version'] ?? '')) refuse('sec-websocket-version', '13');
}
