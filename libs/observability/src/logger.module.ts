import { randomUUID } from 'node:crypto';
import { DynamicModule, Module, OnApplicationShutdown, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import { LoggingSettings, requestLoggingOptions } from './request-logging';
import { currentRequestId } from './request-scope';
import { stopTracing } from './tracing/tracing-state';

/** Log lines are written to stdout in batches of about this many bytes... */
const LOG_BATCH_BYTES = 4096;
/** ...or this often, whichever comes first, so a quiet app's lines are not held back. */
const LOG_FLUSH_INTERVAL_MS = 250;

/**
 * stdout, written in batches instead of one write per line: each write is a
 * system call, and one per request line was a visible share of a request's
 * CPU cost. pino flushes what is left when the process exits (also on an
 * uncaught exception); only a process killed outright (SIGKILL, out of
 * memory) can lose its last quarter second of lines.
 */
function batchedStdout(): pino.DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES });
  setInterval(() => {
    if (!(destination as unknown as { destroyed: boolean }).destroyed) destination.flush();
  }, LOG_FLUSH_INTERVAL_MS).unref();
  return destination;
}

/**
 * JSON logs through pino with one request id per request (taken from the
 * caller's `x-request-id` when it is sane, else generated) and no credentials
 * (see requestLoggingOptions). A transport message handled by a listener that
 * registers microservice logging (core-tenants) is logged under the request id
 * it carries (`reqId`), with one `message completed` line; an error is logged
 * by the transport's error filter, so the completion line stays at info.
 * At shutdown, spans still buffered are exported (when tracing is on).
 */
@Module({})
export class ObservabilityModule implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await stopTracing();
  }

  static forRoot(settings: LoggingSettings): DynamicModule {
    return {
      module: ObservabilityModule,
      imports: [
        LoggerModule.forRoot({
          // nestjs-pino's default route pattern (`{/*splat}`) matches nothing on
          // Nest 12's Fastify adapter; this one matches every route.
          forRoutes: [{ path: '{*splat}', method: RequestMethod.ALL }],
          pinoHttp: [requestLoggingOptions(settings), batchedStdout()],
          microservice: { genReqId: () => currentRequestId() ?? randomUUID(), customLogLevel: () => 'info' },
        }),
      ],
      exports: [LoggerModule],
    };
  }
}
