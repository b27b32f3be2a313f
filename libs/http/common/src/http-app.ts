import { INestApplication, Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { HttpExceptionFilter } from '@platform/errors';
import { REQUEST_ID_HEADER, requestIdOf } from '@platform/observability';
import { Logger } from 'nestjs-pino';
import { RequestValidationPipe } from './request-validation.pipe';

export interface HttpAppOptions {
  /** Largest accepted request body, in bytes; larger ones get 413 (docs/http-conventions.md). */
  bodyLimitBytes: number;
  openApi: { title: string; version: string; description: string };
  /** Extra OpenAPI security schemes the app documents, besides the operator bearer token. */
  describeSecurity?: (builder: DocumentBuilder) => DocumentBuilder;
  /** Keep the raw body on `request.rawBody` (for webhook signatures). */
  rawBody?: boolean;
  /**
   * Longest path parameter (as sent, percent-encoded) a route matches; longer
   * ones get 404. Fastify's default is 100 characters.
   */
  maxParamLength?: number;
}

export const OPENAPI_JSON_PATH = '/openapi.json';
export const API_REFERENCE_PATH = '/docs';

/**
 * Creates one of the platform's HTTP apps the same way everywhere: Fastify,
 * JSON logs, the envelope filter, the validation pipe, the body limit, the
 * OpenAPI document at /openapi.json and an interactive reference at /docs.
 *
 * Fastify rather than Express: lower per-request overhead, a body limit and
 * prototype-poisoning protection built into the JSON parser.
 */
export async function createHttpApp(rootModule: Parameters<typeof NestFactory.create>[0], options: HttpAppOptions): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: options.bodyLimitBytes,
    // Logs go through nestjs-pino; Fastify's own logger stays off.
    logger: false,
    requestIdHeader: false,
    genReqId: requestIdOf,
    trustProxy: true,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // A request read while draining gets its real answer: it reached this replica, the balancer cannot resend it.
    return503OnClosing: false,
    routerOptions: { maxParamLength: options.maxParamLength ?? 100 },
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    bufferLogs: true,
    rawBody: options.rawBody ?? false,
  });
  app.useLogger(app.get(Logger));
  app.useGlobalFilters(new HttpExceptionFilter());
  app.useGlobalPipes(new RequestValidationPipe());
  app.enableShutdownHooks();
  // Give the caller the id their request is logged under (nestjs-pino sets it on the raw request).
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', async (request, reply) => {
      void reply.header(REQUEST_ID_HEADER, request.id);
    });
  mountOpenApi(app, options);
  return app;
}

function mountOpenApi(app: NestFastifyApplication, options: HttpAppOptions): OpenAPIObject {
  let builder = new DocumentBuilder()
    .setTitle(options.openApi.title)
    .setVersion(options.openApi.version)
    .setDescription(options.openApi.description)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Operator token from POST {core_url}/v1/operators/sign-in' }, 'operator');
  if (options.describeSecurity) builder = options.describeSecurity(builder);
  const document = SwaggerModule.createDocument(app, builder.build());
  SwaggerModule.setup(API_REFERENCE_PATH.slice(1), app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH.slice(1),
    raw: ['json'],
    customSiteTitle: options.openApi.title,
  });
  return document;
}

/**
 * Listens on `port` and turns SIGTERM/SIGINT into a graceful stop: Fastify
 * stops accepting connections and answers late requests on open ones, in-flight
 * requests finish, pools close; if that takes longer than `shutdownTimeoutMs`
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
