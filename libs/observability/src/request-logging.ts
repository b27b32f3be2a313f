import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Options } from 'pino-http';

export interface LoggingSettings {
  level: string;
  app: string;
}

export const REQUEST_ID_HEADER = 'x-request-id';
const QUIET_ROUTES = /^\/health\//;

/** Whether a request id given by a caller (or carried by a message) is one we log and pass on. */
export function isSaneRequestId(value: unknown): value is string {
  return typeof value === 'string' && /^[\w.:-]{1,128}$/.test(value);
}

/** The caller's `x-request-id` when it is sane, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return isSaneRequestId(given) ? given : randomUUID();
}

type LoggedRequest = IncomingMessage & { originalUrl?: string };

/**
 * What a request's log lines say about it: its id, method and path, and on
 * the completion line its status and duration (`responseTime`, ms). Headers
 * are left out: they made every line about 1 KB and writing them was a large
 * share of a request's CPU cost; credentials (all three profiles travel in
 * `Authorization`) never reach the log at all. The redaction stays for
 * anything else that logs request headers.
 */
export function requestLoggingOptions(settings: LoggingSettings): Options {
  return {
    level: settings.level,
    base: { app: settings.app },
    // The serializers below get the raw request and response, not pino's full copies of them.
    wrapSerializers: false,
    serializers: {
      req: (req: LoggedRequest) => ({ id: req.id, method: req.method, url: req.originalUrl ?? req.url }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-hub-signature-256"]'],
      censor: '[redacted]',
    },
    // The HTTP server has already chosen the id (requestIdOf); log under the same one.
    genReqId: (req: IncomingMessage) => req.id ?? requestIdOf(req),
    // Probes poll every few seconds; their lines would drown the rest.
    autoLogging: { ignore: (req: IncomingMessage) => QUIET_ROUTES.test((req as LoggedRequest).originalUrl ?? req.url ?? '') },
  };
}
