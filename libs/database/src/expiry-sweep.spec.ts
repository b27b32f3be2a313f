import { describe, expect, it } from 'vitest';
import { deleteInBatches, PeriodicSweep } from './expiry-sweep';

describe('deleteInBatches', () => {
  it('deletes batch after batch until one comes back short, and answers the total', async () => {
    const remaining = [5, 5, 2];
    const limits: number[] = [];
    const total = await deleteInBatches(async (limit) => {
      limits.push(limit);
      return remaining.shift() ?? 0;
    }, 5);
    expect(total).toBe(12);
    expect(limits).toEqual([5, 5, 5]);
  });
});

describe('PeriodicSweep', () => {
  it('never runs two sweeps at once: a run while one is under way joins it', async () => {
    let started = 0;
    let finish!: (deleted: number) => void;
    const sweep = new PeriodicSweep(() => {
      started += 1;
      return new Promise<number>((resolve) => (finish = resolve));
    });
    const first = sweep.run();
    const second = sweep.run();
    finish(3);
    expect(await Promise.all([first, second])).toEqual([3, 3]);
    expect(started).toBe(1);

    const third = sweep.run();
    finish(1);
    expect(await third).toBe(1);
    expect(started).toBe(2);
  });
});
