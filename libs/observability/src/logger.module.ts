import { DynamicModule, Global, Module, OnApplicationShutdown } from '@nestjs/common';
import pino from 'pino';
import { AppLogger } from './app-logger';
import { AccessLog, FULL_ACCESS_LOG, loggerOptions, LoggingSettings } from './request-logging';
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
 * JSON logs through pino to batched stdout, as AppLogger (Nest's logger, set
 * by createHttpApp together with the request hooks of logRequests, which
 * log the requests AccessLog says). No
 * credentials reach the log (see loggerOptions). At shutdown, spans still
 * buffered are exported (when tracing is on).
 */
@Global()
@Module({})
export class ObservabilityModule implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await stopTracing();
  }

  static forRoot(settings: LoggingSettings): DynamicModule {
    return {
      module: ObservabilityModule,
      providers: [
        { provide: AppLogger, useFactory: () => new AppLogger(pino(loggerOptions(settings), batchedStdout())) },
        { provide: AccessLog, useValue: new AccessLog(settings.accessLog ?? FULL_ACCESS_LOG) },
      ],
      exports: [AppLogger, AccessLog],
    };
  }
}
