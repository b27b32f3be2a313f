import { once } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

/**
 * An HTTP server on 127.0.0.1 that can be stopped (connections refused, open
 * ones cut) and started again on the same port: a provider going down and
 * coming back. Subclasses answer the requests.
 */
export abstract class LoopbackServer {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  protected port = 0;

  get listeningPort(): number {
    return this.port;
  }

  async start(port = this.port): Promise<this> {
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server.listen(port, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Stops listening: calls are refused until `start()` again. */
  async stop(): Promise<void> {
    if (!this.server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  protected abstract handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
}
