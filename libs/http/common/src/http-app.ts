import { INestApplication, Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import type { TrustedProxies } from '@platform/config';
import { answerClientError, answerConnectRequest, HttpExceptionFilter, replyWithFrameworkError } from '@platform/errors';
import { AccessLog, AppLogger, nameRequestSpan, PlatformMetrics, REQUEST_ID_HEADER, requestDurationObserver, requestIdOf, requestLogHooks } from '@platform/observability';
import { CORS_PREFLIGHT_ROUTE, CorsPolicy, registerCors } from './cors';
import { depthLimitedJsonParser } from './json-body';
import { ApiDocumentOptions, buildApiDocument } from './openapi/api-document';
import { PathMethods } from './path-methods';
import { RequestValidationPipe } from './request-validation.pipe';
import { isNoStoreRoute, NO_STORE } from './no-store';
import { applySecurityHeaders } from './security-headers';
import { closeInStages, closesBeforeBodyRead } from './staged-close';
import { assertStorableText } from './storable-text';

export interface HttpAppOptions {
  /** Largest accepted request body, in bytes; larger ones get 413 (docs/http-conventions.md). */
  bodyLimitBytes: number;
  /** Time a client has to send the request line and headers; then 408 1908. */
  headersTimeoutMs: number;
  /** Time a client has to send the whole request, body included; then 408 1908. */
  requestTimeoutMs: number;
  /** Browser origins allowed to call the app; none: CORS off (docs/http-conventions.md). */
  cors: CorsPolicy;
  /**
   * The proxies whose `X-Forwarded-For` entries make `request.ip` (Fastify's
   * `trustProxy`, parsed from TRUST_PROXY): `false` trusts none, the client is
   * the socket's peer. Never `true` (docs/deployment.md).
   */
  trustProxy: TrustedProxies;
  openApi: ApiDocumentOptions;
  /** Serve /openapi.json and /docs (API_DOCS; off in production unless asked for). Default: served. */
  serveApiDocs?: boolean;
  /** Keep the raw body on `request.rawBody` (for webhook signatures). */
  rawBody?: boolean;
  /**
   * Longest path parameter (as sent, percent-encoded) a route matches; longer
   * ones get 414 1914. Fastify's default is 100 characters.
   */
  maxParamLength?: number;
}

/** Request line plus headers, in bytes (Node's default, stated): larger ones get 431 1931. */
export const MAX_HEADER_BYTES = 16 * 1024;

export const OPENAPI_JSON_PATH = '/openapi.json';
export const API_REFERENCE_PATH = '/docs';

/**
 * Creates one of the platform's HTTP apps the same way everywhere: Fastify,
 * JSON logs, request metrics, the envelope filter, the validation pipe, the
 * body limit, CORS when origins are configured, security headers on every
 * answer (security-headers.ts), text PostgreSQL cannot store refused
 * (storable-text.ts), and, unless turned off, the OpenAPI document at
 * /openapi.json and an interactive reference at /docs.
 *
 * Fastify rather than Express: lower per-request overhead, a body limit and
 * prototype-poisoning protection built into the JSON parser.
 */
export async function createHttpApp(rootModule: Parameters<typeof NestFactory.create>[0], options: HttpAppOptions): Promise<NestFastifyApplication> {
  const maxParamLength = options.maxParamLength ?? 100;
  const adapter = new FastifyAdapter({
    bodyLimit: options.bodyLimitBytes,
    // Logs go through AppLogger and the request log's hooks; Fastify's own logger stays off.
    logger: false,
    // No Nest middleware is used (requests are logged from Fastify hooks): no middleware layer per request.
    skipMiddie: true,
    requestIdHeader: false,
    genReqId: requestIdOf,
    // A hop count as the function Fastify makes of one (Nest's adapter options leave the number out of the type).
    trustProxy: typeof options.trustProxy === 'number' ? trustedHops(options.trustProxy) : options.trustProxy,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Fastify's 503 to requests arriving on open connections while it closes is a fixed body outside
    // the envelope: they are served instead (with `Connection: close`), the pools still being open then.
    return503OnClosing: false,
    routerOptions: { maxParamLength },
    // What Fastify and Node refuse before any route runs is answered in the envelope too.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      applySecurityHeaders(request.raw, reply.raw);
      replyWithFrameworkError(error, request, reply);
    },
    clientErrorHandler: answerClientError,
    requestTimeout: options.requestTimeoutMs,
    http: {
      maxHeaderSize: MAX_HEADER_BYTES,
      // The headers are part of the request: they never get longer than all of it.
      headersTimeout: Math.min(options.headersTimeoutMs, options.requestTimeoutMs),
      // Node enforces both timeouts on this interval (30 s by default), so they hold within a second.
      connectionsCheckingInterval: Math.min(1000, options.headersTimeoutMs),
      // A request without Host is served like any other (one API whatever the host), not refused with a bare 400.
      requireHostHeader: false,
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    bufferLogs: true,
    rawBody: options.rawBody ?? false,
    // JSON only (registered below): Nest's own parsers would add application/x-www-form-urlencoded.
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // JSON only: a body of any other type (a form, multipart, text/plain) has no parser, so Fastify
  // refuses it (400 1002 on content-type) while parsing, before authentication, guards or any
  // handler run. A form or text/plain post is what a web page can make a browser send without a
  // CORS preflight; refusing it keeps a page from signing in with a visitor's guesses or sending mail.
  fastify.removeAllContentTypeParsers();
  const pathMethods = new PathMethods({ maxParamLength });
  fastify.addHook('onRoute', (route) => {
    // The CORS plugin's catch-all OPTIONS route only lets preflights reach its hook: no API method.
    if (route.method === CORS_PREFLIGHT_ROUTE.method && route.url === CORS_PREFLIGHT_ROUTE.url) return;
    pathMethods.add(route.method, route.url);
  });
  const allowedMethodsAt = (url: string) => pathMethods.allowedAt(url);
  fastify.server.on('connect', answerConnectRequest(allowedMethodsAt));
  // Node answers an `Expect` other than 100-continue with a bare 417 unless told otherwise; the
  // expectation is one a server may ignore (RFC 9110), so the request is served like any other.
  fastify.server.on('checkExpectation', (request, response) => fastify.server.emit('request', request, response));
  // One hook per stage, each doing all of that stage's work: Fastify's hook runner costs a few
  // microseconds per hook and request, whatever the hook does (docs/benchmarks-cpu.md).
  // onRequest: security headers on every answer routed by Fastify (success, error, 404, CORS
  // preflight: this hook runs first; the router's own answers get them in frameworkErrors), and,
  // with tracing on, the HTTP server span named after the route template.
  fastify.addHook('onRequest', (request, reply, done) => {
    applySecurityHeaders(request.raw, reply.raw);
    nameRequestSpan(request.method, request.routeOptions.url);
    done();
  });
  await registerCors(app, options.cors);
  const logger = app.get(AppLogger);
  app.useLogger(logger);
  const requestLog = requestLogHooks(logger.root, app.get(AccessLog).settings);
  const observeDuration = requestDurationObserver(app.get(PlatformMetrics));
  app.useGlobalFilters(new HttpExceptionFilter({ allowedMethodsAt }));
  app.useGlobalPipes(new RequestValidationPipe());
  app.useBodyParser('application/json', { bodyLimit: options.bodyLimitBytes }, depthLimitedJsonParser(fastify));
  app.enableShutdownHooks();
  // preValidation, after body parsing, before Nest's handler: text PostgreSQL cannot store is
  // refused for every route at once, before guards, pipes or handlers run (any of them may pass it
  // to SQL); then the route is served as the request in scope (its log lines carry its id).
  fastify.addHook('preValidation', (request, _reply, done) => {
    try {
      assertStorableText(request);
    } catch (error) {
      done(error as Error);
      return;
    }
    requestLog.enterScope(request, done);
  });
  // Give the caller the id their request is logged under, keep every answer of a route that
  // hands out a credential or a ticket out of caches (no-store.ts), and close in stages a
  // connection whose request body is still arriving.
  // A callback hook, not an async one: no promise per request.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    if (isNoStoreRoute(request)) void reply.header('cache-control', NO_STORE);
    // An answer given before the body was read (413 1913) lets a client still sending it read it (staged-close.ts).
    if (closesBeforeBodyRead(request.raw, reply.getHeader('connection'))) closeInStages(request.raw);
    done(null, payload);
  });
  // onResponse: the request's duration in the metrics (every request) and its completion line
  // (the requests ACCESS_LOG keeps).
  fastify.addHook('onResponse', (request, reply, done) => {
    observeDuration(request, reply);
    requestLog.completed(request, reply);
    done();
  });
  if (options.serveApiDocs ?? true) mountOpenApi(app, options);
  return app;
}

/** Trusts the `hops` nearest hops: the socket's peer is hop 0. */
function trustedHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

function mountOpenApi(app: NestFastifyApplication, options: HttpAppOptions): void {
  const document = buildApiDocument(app, options.openApi);
  SwaggerModule.setup(API_REFERENCE_PATH.slice(1), app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH.slice(1),
    raw: ['json'],
    customSiteTitle: options.openApi.title,
  });
}

/**
 * Listens on `port` and turns SIGTERM/SIGINT into a graceful stop: Fastify
 * stops accepting connections, in-flight requests finish (and late ones on
 * open connections are served with `Connection: close`), pools close; if that takes longer than `shutdownTimeoutMs`
 * the process exits anyway so an orchestrator never waits for ever.
 */
export async function listenUntilStopped(app: INestApplication, port: number, shutdownTimeoutMs: number): Promise<void> {
  await app.listen(port, '0.0.0.0');
  const logger = new NestLogger('Shutdown');
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.log(`${signal} received, draining`);
      setTimeout(() => {
        logger.error(`still draining after ${shutdownTimeoutMs} ms, exiting`);
        process.exit(1);
      }, shutdownTimeoutMs).unref();
    });
  }
}
