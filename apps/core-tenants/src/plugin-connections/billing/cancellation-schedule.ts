export const CANCELLATION_SCHEDULE = Symbol('CANCELLATION_SCHEDULE');

/** When the cancellation worker looks for due rows, and how a failed attempt backs off (milliseconds). */
export interface CancellationSchedule {
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
}
