import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { LoggingSettings, requestLoggingOptions } from './request-logging';

/**
 * JSON logs through pino with one request id per request (taken from the
 * caller's `x-request-id` when it is sane, else generated) and no credentials
 * (see requestLoggingOptions).
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
          pinoHttp: requestLoggingOptions(settings),
        }),
      ],
      exports: [LoggerModule],
    };
  }
}
