export const CANCELLATION_SCHEDULE = Symbol('CANCELLATION_SCHEDULE');

/** When the cancellation worker looks for due rows, and how a failed attempt backs off (milliseconds). */
export interface CancellationSchedule {
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

/** base * 2^(attempts-1), capped, with up to 20% jitter so replicas do not retry in step. */
export function retryDelayMs(schedule: CancellationSchedule, attempts: number): number {
  const exponential = schedule.retryBaseMs * 2 ** Math.min(attempts - 1, 30);
  const capped = Math.min(exponential, schedule.retryMaxMs);
  return Math.round(capped * (0.8 + Math.random() * 0.2));
}
