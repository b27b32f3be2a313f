import type { IncomingMessage } from 'node:http';

/** How much of a refused request's body is read and discarded after its answer, at most. */
export interface DrainBounds {
  bytes: number;
  ms: number;
}

/**
 * The drain's bounds (docs/http-conventions.md, Limits): enough for a client
 * that sent a body a few times the largest limit (10 MiB) over a slow link,
 * small enough that a hostile client holds a socket a few seconds at most.
 */
export const REFUSED_BODY_DRAIN: DrainBounds = { bytes: 32 * 1024 * 1024, ms: 5_000 };

/**
 * Closes the connection of an answer sent before its request's body was read
 * (413 1913, an unsupported content type) in stages, as RFC 9112 §9.6 asks:
 * the answer and then our FIN are sent (Node does this when the answer has
 * `Connection: close`), but the socket stays open for reading, and what the
 * client still sends is read and discarded, until it has sent the whole body,
 * closes its side, or passes a bound (`bounds.bytes` more, or `bounds.ms`
 * after the answer); then the socket is closed. Closing at once, as Node
 * does, makes the kernel reset the connection on the next bytes the client
 * writes, and a client still writing its body (Node's fetch) gets EPIPE or
 * ECONNRESET and never reads the answer.
 *
 * Node closes such a connection with `socket.destroySoon()` once the answer
 * is written (its `resOnFinish`); this replaces that method on this one
 * socket. Node discards the rest of the body itself (`req._dump()`); the
 * request's data events count it.
 */
export function closeInStages(request: IncomingMessage, bounds: DrainBounds = REFUSED_BODY_DRAIN): void {
  const socket = request.socket;
  socket.destroySoon = () => {
    socket.end();
    let drained = 0;
    const close = () => {
      clearTimeout(deadline);
      socket.destroy();
    };
    const deadline = setTimeout(close, bounds.ms);
    deadline.unref();
    request.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > bounds.bytes) close();
    });
    // The whole body read: nothing the client still sends can be reset now.
    request.once('end', () => (socket.writableFinished ? close() : socket.once('finish', close)));
    socket.once('end', close);
    socket.once('close', () => clearTimeout(deadline));
  };
}

/** Whether an answer about to be sent ends its connection before its request's body was read. */
export function closesBeforeBodyRead(request: IncomingMessage, connectionHeader: unknown): boolean {
  return !request.complete && typeof connectionHeader === 'string' && connectionHeader.toLowerCase() === 'close';
}
