import { ConsoleLogger, LoggerService, LogLevel } from '@nestjs/common';

/** One call to Nest's logger: its level, the message and the parameters after it (the last one is the logging class's name). */
export interface LoggedLine {
  level: LogLevel;
  message: unknown;
  params: unknown[];
  /** The class that logged (Nest's `new Logger(context)`), when it said. */
  context: string | undefined;
}

/**
 * Nest's logger where a spec runs code that logs without an app of its own
 * (a use case, a library under unit test): the lines are kept, not
 * printed, so a passing run shows no expected error; a spec that expects a
 * line reads it from `capturedLogs.lines()`, and a failing test prints what
 * was logged during it (the test setup does that).
 */
export class CapturedLogs implements LoggerService {
  private kept: LoggedLine[] = [];

  log(message: unknown, ...params: unknown[]): void {
    this.keep('log', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.keep('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.keep('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.keep('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.keep('verbose', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.keep('fatal', message, params);
  }

  /** The lines logged since the last `clear()`, optionally only those of one logging class. */
  lines(context?: string): LoggedLine[] {
    return context === undefined ? [...this.kept] : this.kept.filter((line) => line.context === context);
  }

  clear(): void {
    this.kept = [];
  }

  /** How many lines are kept: a mark for `print(from)`. */
  count(): number {
    return this.kept.length;
  }

  /** Writes the kept lines from the `from`th on as Nest's console logger would have written them when they were logged. */
  print(from = 0): void {
    const console = new ConsoleLogger();
    for (const { level, message, params } of this.kept.slice(from)) console[level](message, ...params);
  }

  private keep(level: LogLevel, message: unknown, params: unknown[]): void {
    const last = params[params.length - 1];
    this.kept.push({ level, message, params, context: typeof last === 'string' ? last : undefined });
  }
}

/** The one capture the test setup gives Nest's logger for each test file. */
export const capturedLogs = new CapturedLogs();
