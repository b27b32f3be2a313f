import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { AppException, errorEnvelope } from './app-exception';
import { ErrorKey } from './catalog';

/** Node's HTTP parser and server refusals, by the error code they carry. */
function keyOfClientError(code: string | undefined): ErrorKey {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'HeaderFieldsTooLarge';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'RequestTimeout';
    default:
      return 'MalformedRequest';
  }
}

/** The whole HTTP/1.1 answer, written straight to the socket: no request or reply object exists yet. */
export function clientErrorResponse(code: string | undefined): string {
  const exception = new AppException(keyOfClientError(code));
  const body = JSON.stringify(errorEnvelope(exception.toBody()));
  return (
    `HTTP/1.1 ${exception.status} ${STATUS_CODES[exception.status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * Fastify's `clientErrorHandler` (the server's 'clientError' event): requests
 * Node's HTTP parser refuses before any app code sees them (headers over the
 * size limit, headers or body not received in time, malformed HTTP). Answered
 * in the envelope, then the connection is closed, as Node does by default:
 * the parser cannot resume mid-message. Like Node, nothing is written when a
 * response has already started on this connection, so it is never corrupted.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(clientErrorResponse(error.code));
  socket.destroy(error);
}
