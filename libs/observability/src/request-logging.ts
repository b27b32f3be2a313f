import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AccessLogSettings } from '@platform/config';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pino, { type Logger, type LoggerOptions } from 'pino';
import { loggedUrl } from './logged-url';
import { runInRequest } from './request-scope';

export interface LoggingSettings {
  level: string;
  app: string;
  /** Which requests get a completion line (ACCESS_LOG, ACCESS_LOG_SLOW_MS); every one when not given. */
  accessLog?: AccessLogSettings;
}

/** Every request logged: what an app does when no access-log settings are given (tests, tools). */
export const FULL_ACCESS_LOG: AccessLogSettings = { mode: { kind: 'all' }, slowMs: 0 };

/** The app's access-log settings, as a provider createHttpApp reads (ObservabilityModule.forRoot). */
export class AccessLog {
  constructor(readonly settings: AccessLogSettings) {}
}

export const REQUEST_ID_HEADER = 'x-request-id';
const QUIET_ROUTES = /^\/health\//;

/** Whether a request id given by a caller (or carried by a message) is one we log and pass on. */
export function isSaneRequestID(value: unknown): value is string {
  return typeof value === 'string' && /^[\w.:-]{1,128}$/.test(value);
}

/** The caller's `x-request-id` when it is sane, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return isSaneRequestID(given) ? given : randomUUID();
}

/** What a log line says of the request it belongs to. */
type LoggedRequest = Pick<FastifyRequest, 'id' | 'method' | 'url'>;

/**
 * pino options of every app's logger. A request's lines say its id, method
 * and path, and its completion line its status and duration (`responseTime`,
 * ms). Headers are left out: they made every line about 1 KB and writing them
 * was a large share of a request's CPU cost; credentials (all three profiles
 * travel in `Authorization`) never reach the log at all. The redaction stays
 * for anything else that logs request headers. Secrets a URL carries (the
 * webhook handshake's `hub.verify_token`) are redacted from its query.
 */
export function loggerOptions(settings: LoggingSettings): LoggerOptions {
  return {
    level: settings.level,
    base: { app: settings.app },
    serializers: {
      req: (req: LoggedRequest) => ({ id: req.id, method: req.method, url: req.url === undefined ? undefined : loggedUrl(req.url) }),
      res: (res: FastifyReply) => ({ statusCode: res.statusCode }),
    },
    redact: {
      // A failed query's bound values (TypeORM's QueryFailedError.parameters) hold what was written:
      // password and token hashes among them, and PostgreSQL's `detail` repeats the values of a
      // violated key ("Key (token_hash)=(...) already exists"), on the error and on the driver's
      // error inside it. The SQL text, with its $n placeholders, and the constraint's name stay.
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-hub-signature-256"]',
        ...['err', 'err.cause'].flatMap((error) => [`${error}.parameters`, `${error}.detail`, `${error}.driverError.parameters`, `${error}.driverError.detail`]),
      ],
      censor: '[redacted]',
    },
  };
}

/**
 * What the request path asks of the logs, as functions the app's hooks call
 * (createHttpApp runs each from the one hook of its stage, beside the other
 * work of that stage): `enterScope` serves the route as the request in scope
 * (request-scope.ts), called when Fastify hands the request on after the body
 * is read (a scope entered earlier would not survive the body's stream
 * events); `completed` writes the completion line (`request completed`;
 * `request errored` with an `err` for a 5xx) of the requests the access-log
 * settings keep. Hooks instead of Nest middleware: no middleware layer
 * (@fastify/middie) runs per request, and no child logger or response
 * listeners are made for a request that logs nothing but its completion.
 */
export interface RequestLogHooks {
  enterScope(request: FastifyRequest, next: () => void): void;
  completed(request: FastifyRequest, reply: FastifyReply): void;
}

export function requestLogHooks(logger: Logger, accessLog: AccessLogSettings = FULL_ACCESS_LOG): RequestLogHooks {
  // The completion line holds only what the serializers above keep (id, method, path with its
  // secrets redacted; status) and, for a 5xx, an error made here with a message alone: none of
  // the redacted paths can occur in it. Skipping pino's redaction pass for it (a copy of `req`
  // and `err` on every line) saves a measurable share of a request's CPU; the lines are the same.
  const completionLogger = logger.child({}, { redact: [] });
  const writeCompleted = completedLineWriter(completionLogger);
  const logged = accessLogFilter(accessLog);
  return {
    enterScope: (request, next) => runInRequest(request, next),
    completed: (request, reply) => {
      // Probes poll every few seconds; their lines would drown the rest.
      if (!QUIET_ROUTES.test(request.url)) logCompletion(completionLogger, writeCompleted, logged, request, reply);
    },
  };
}

/** The request log's hooks on their own (an app's createHttpApp merges them with its other hooks). */
export function logRequests(fastify: FastifyInstance, logger: Logger, accessLog: AccessLogSettings = FULL_ACCESS_LOG): void {
  const hooks = requestLogHooks(logger, accessLog);
  fastify.addHook('preHandler', (request, _reply, done) => hooks.enterScope(request, done));
  fastify.addHook('onResponse', (request, reply, done) => {
    hooks.completed(request, reply);
    done();
  });
}

/**
 * Whether a request with this status and duration gets its completion line
 * (docs/observability.md, Access log): errors (4xx, 5xx) and slow requests in
 * every mode, the rest by the mode. Only the line is left out: metrics and
 * traces have their own hooks and count every request.
 */
export function accessLogFilter({ mode, slowMs }: AccessLogSettings): (statusCode: number, responseTime: number) => boolean {
  if (mode.kind === 'all') return () => true;
  const rest = mode.kind === 'errors' ? () => false : () => Math.random() < mode.fraction;
  return (statusCode, responseTime) => statusCode >= 400 || responseTime >= slowMs || rest();
}

function logCompletion(
  logger: Logger,
  writeCompleted: (request: LoggedRequest, statusCode: number, responseTime: number) => void,
  logged: (statusCode: number, responseTime: number) => boolean,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const responseTime = Math.round(reply.elapsedTime);
  if (!logged(reply.statusCode, responseTime)) return;
  if (reply.statusCode >= 500) {
    logger.info({ req: request, res: reply, err: new Error(`failed with status code ${reply.statusCode}`), responseTime }, 'request errored');
  } else if (logger.isLevelEnabled('info')) {
    writeCompleted(request, reply.statusCode, responseTime);
  }
}

/** pino's own pieces of a line, kept on the logger under its exported symbols. */
interface PinoLinePieces {
  /** `{"level":30` and the like, by level number. */
  levelStart: Record<number, string>;
  /** `,"time":<ms>` (the logger's `timestamp` function). */
  time: () => string;
  /** `,"pid":…,"hostname":…,"app":…`: the base fields and the child's bindings, as JSON. */
  bindings: string;
  /** `}` and the line end. */
  end: string;
  stream: { write(line: string): unknown };
}

function linePiecesOf(logger: Logger): PinoLinePieces {
  // pino keeps these pieces under its exported symbols (pino.symbols), which its Logger type does not declare.
  const fields = logger as unknown as Record<symbol, unknown>;
  const { lsCacheSym, timeSym, chindingsSym, endSym, streamSym } = pino.symbols;
  return {
    levelStart: fields[lsCacheSym] as Record<number, string>,
    time: fields[timeSym] as () => string,
    bindings: fields[chindingsSym] as string,
    end: fields[endSym] as string,
    stream: fields[streamSym] as PinoLinePieces['stream'],
  };
}

/**
 * Writes a request's `request completed` line (status below 500) exactly as
 * `logger.info({ req, res, responseTime }, 'request completed')` writes it
 * (the spec holds the two to the same bytes), without pino's work per line:
 * the serializers' objects, the walk over the merged object and a stringifier
 * per value. What is the same on every line (level, base fields, message, end)
 * is pino's own text, read once from the logger; the request's id, method and
 * path are JSON strings and the status and duration numbers, as pino writes
 * them. It was about half of the line's CPU cost. 5xx lines, with their `err`,
 * still go through pino.
 */
function completedLineWriter(logger: Logger): (request: LoggedRequest, statusCode: number, responseTime: number) => void {
  const pieces = linePiecesOf(logger);
  // A destination that wants each line's level beside it (pino.multistream) gets the line from pino.
  if ((pieces.stream as Record<symbol, unknown>)[pino.symbols.needsMetadataGsym]) {
    return (request, statusCode, responseTime) => logger.info({ req: request, res: { statusCode }, responseTime }, 'request completed');
  }
  const start = pieces.levelStart[logger.levels.values.info];
  const tail = `,"msg":"request completed"${pieces.end}`;
  return (request, statusCode, responseTime) => {
    const req = `{"id":${JSON.stringify(request.id)},"method":${JSON.stringify(request.method)},"url":${JSON.stringify(loggedUrl(request.url))}}`;
    pieces.stream.write(`${start}${pieces.time()}${pieces.bindings},"req":${req},"res":{"statusCode":${statusCode}},"responseTime":${responseTime}${tail}`);
  };
}
