import { describe, expect, it } from 'vitest';
import { leaseSeconds, retryDelayMs } from './webhook-delivery-settings';

const schedule = { retryDelaysSeconds: [5, 300, 1800, 7200, 18000, 36000, 36000] };

describe('the webhook retry schedule', () => {
  it('waits each delay of the schedule after the failed attempt of that rank, within ±20 %', () => {
    expect(retryDelayMs(schedule, 1, 0.5)).toBe(5_000);
    expect(retryDelayMs(schedule, 2, 0)).toBe(240_000);
    expect(retryDelayMs(schedule, 7, 0.999_999)).toBe(Math.round(36_000_000 * (0.8 + 0.4 * 0.999_999)));
  });

  it('spans about a day over eight attempts, then gives up', () => {
    const total = schedule.retryDelaysSeconds.reduce((sum, _, index) => sum + retryDelayMs(schedule, index + 1, 0.5)!, 0);
    expect(total / 3_600_000).toBeCloseTo(27.6, 1);
    expect(retryDelayMs(schedule, 8)).toBeUndefined();
  });

  it('leases an attempt for its time limit and 5 s to record it', () => {
    expect(leaseSeconds({ timeoutMs: 10_000 })).toBe(15);
    expect(leaseSeconds({ timeoutMs: 1_500 })).toBe(7);
  });
});
