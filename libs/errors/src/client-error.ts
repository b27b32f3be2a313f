import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { AppException, errorEnvelope } from './app-exception';
import { ErrorKey } from './catalog';
import { AllowedMethodsAt, whyNoRouteAnswers } from './http-exception.filter';

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

/** A whole HTTP/1.1 answer in the envelope, written straight to a socket where no reply object exists, closing the connection. */
export function rawErrorResponse(exception: AppException): string {
  const body = JSON.stringify(errorEnvelope(exception.toBody()));
  const allow = exception.allowedMethods ? `Allow: ${exception.allowedMethods.join(', ')}\r\n` : '';
  const retryAfter = exception.retryAfterHeader === undefined ? '' : `Retry-After: ${exception.retryAfterHeader}\r\n`;
  return (
    `HTTP/1.1 ${exception.status} ${STATUS_CODES[exception.status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    allow +
    retryAfter +
    'Connection: close\r\n\r\n' +
    body
  );
}

/** The answer to a request Node's parser refused with this error code. */
export function clientErrorResponse(code: string | undefined): string {
  return rawErrorResponse(new AppException(keyOfClientError(code)));
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

/**
 * The server's 'connect' event: Node hands a CONNECT request to it instead of
 * the app, and without a listener drops the connection unanswered. No route
 * answers CONNECT, so it gets what any other method no route answers gets.
 */
export function answerConnectRequest(allowedMethodsAt: AllowedMethodsAt): (request: IncomingMessage, socket: Duplex) => void {
  return (request, socket) => {
    // Node no longer watches this socket's errors: a client that resets it must not take the process down.
    socket.on('error', () => socket.destroy());
    socket.end(rawErrorResponse(whyNoRouteAnswers(request.url ?? '', allowedMethodsAt)));
  };
}
