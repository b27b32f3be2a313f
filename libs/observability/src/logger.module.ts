import { randomUUID } from 'node:crypto';
import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';

export interface LoggingSettings {
  level: string;
  app: string;
}

const REQUEST_ID_HEADER = 'x-request-id';
const QUIET_ROUTES = /^\/health\//;

/** The caller's `x-request-id` when it is sane, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

/**
 * JSON logs through pino with one request id per request (taken from the
 * caller's `x-request-id` when it is sane, else generated) and the
 * Authorization header redacted: all three credential profiles travel in it.
 */
@Module({})
export class ObservabilityModule {
  static forRoot(settings: LoggingSettings): DynamicModule {
    return {
      module: ObservabilityModule,
      imports: [
        LoggerModule.forRoot({
          // nestjs-pino's default route pattern (`{/*splat}`) matches nothing on
          // Nest 12's Fastify adapter; this one matches every route.
          forRoutes: [{ path: '{*splat}', method: RequestMethod.ALL }],
          pinoHttp: {
            level: settings.level,
            base: { app: settings.app },
            redact: {
              paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-hub-signature-256"]'],
              censor: '[redacted]',
            },
            // The HTTP server has already chosen the id (requestIdOf); log under the same one.
            genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id?: string }).id ?? requestIdOf(req),
            // Probes poll every few seconds; their lines would drown the rest.
            autoLogging: { ignore: (req: IncomingMessage & { originalUrl?: string }) => QUIET_ROUTES.test(req.originalUrl ?? req.url ?? '') },
          },
        }),
      ],
      exports: [LoggerModule],
    };
  }
}

export { REQUEST_ID_HEADER };
