import { LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';
import { currentRequest } from './request-scope';

/**
 * Nest's logger, writing through pino: a line logged while a request is
 * served carries that request (`req`: id, method, path), as the completion
 * line does; one logged while a message or job is handled carries the
 * request id it came with (`req.id`). The last argument Nest passes is the logger's context (the
 * class that logs), written as `context`; an object message is merged into
 * the line, an Error becomes its `err`.
 */
export class AppLogger implements LoggerService {
  constructor(readonly root: Logger) {}

  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.write('trace', message, optionalParams);
  }

  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.write('debug', message, optionalParams);
  }

  log(message: unknown, ...optionalParams: unknown[]): void {
    this.write('info', message, optionalParams);
  }

  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.write('warn', message, optionalParams);
  }

  error(message: unknown, ...optionalParams: unknown[]): void {
    this.write('error', message, optionalParams);
  }

  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.write('fatal', message, optionalParams);
  }

  private write(level: Level, message: unknown, optionalParams: unknown[]): void {
    if (!this.root.isLevelEnabled(level)) return;
    const request = currentRequest();
    const logger = request ? this.root.child({ req: request }) : this.root;
    const fields: Record<string, unknown> = {};
    const params = optionalParams.slice(0, -1);
    if (optionalParams.length > 0) fields.context = optionalParams[optionalParams.length - 1];
    if (message instanceof Error) {
      logger[level]({ ...fields, err: message }, ...(params as []));
    } else if (typeof message === 'object' && message !== null) {
      logger[level]({ ...fields, ...message }, ...(params as []));
    } else if (isExceptionHandlerStack(level, message, params)) {
      // Nest's exception handlers call error(message, stack): logged as one error with that stack.
      const err = new Error(message as string);
      err.stack = params[0] as string;
      logger[level]({ ...fields, err });
    } else {
      logger[level](fields, message as string, ...(params as []));
    }
  }
}

function isExceptionHandlerStack(level: Level, message: unknown, params: unknown[]): boolean {
  return level === 'error' && typeof message === 'string' && params.length === 1 && typeof params[0] === 'string' && /\n\s*at /.test(params[0]);
}
