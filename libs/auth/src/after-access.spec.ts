import { describe, expect, it } from 'vitest';
import { accessGranted, runWithAfterAccess, withAccessStillChecked } from './after-access';

describe('work after the access check', () => {
  it('does nothing outside a request that has pending work', () => {
    expect(accessGranted()).toBeUndefined();
  });

  it('runs the pending work once, at the first access check that passes', async () => {
    const runs: string[] = [];
    await runWithAfterAccess(
      async () => {
        runs.push('work');
      },
      async () => {
        runs.push('check');
        await accessGranted();
        runs.push('action');
        await accessGranted();
      },
    );
    expect(runs).toEqual(['check', 'work', 'action']);
  });

  it('waits for the last step of an access check made of several', async () => {
    const runs: string[] = [];
    await runWithAfterAccess(
      async () => {
        runs.push('work');
      },
      async () => {
        await withAccessStillChecked(async () => {
          runs.push('membership');
          await accessGranted();
        });
        runs.push('connection');
        await accessGranted();
      },
    );
    expect(runs).toEqual(['membership', 'connection', 'work']);
  });

  it('lets the work stop the request: what it throws is what the access check throws', async () => {
    const action = runWithAfterAccess(
      async () => {
        throw new Error('replay instead');
      },
      async () => {
        await accessGranted();
        return 'acted';
      },
    );
    await expect(action).rejects.toThrow('replay instead');
  });

  it('keeps concurrent requests apart', async () => {
    const ran: number[] = [];
    await Promise.all(
      [1, 2, 3].map((n) =>
        runWithAfterAccess(
          async () => {
            ran.push(n);
          },
          async () => {
            await new Promise((resolve) => setImmediate(resolve));
            await accessGranted();
          },
        ),
      ),
    );
    expect(ran.sort()).toEqual([1, 2, 3]);
  });
});
