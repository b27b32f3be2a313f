import { describe, expect, it } from 'vitest';
import { PasswordWork } from './password-work';

function deferred() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { done, release };
}

describe('PasswordWork', () => {
  it('runs at most `concurrency` at once, queues `queue` more in order, and refuses the next at once with 503 5903 and Retry-After', async () => {
    const work = new PasswordWork({ concurrency: 2, queue: 1 });
    const gates = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, index) =>
      work.run(async () => {
        started.push(index);
        await gate.done;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(work.load).toEqual({ running: 2, waiting: 1 });

    const refused = await work.run(async () => 'never').catch((error: unknown) => error);
    expect(refused).toMatchObject({ key: 'InternalServiceUnavailable', retryAfterSeconds: 1 });

    gates[0]!.release();
    expect(await runs[0]).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    gates[1]!.release();
    gates[2]!.release();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect(work.load).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the turn of work that fails', async () => {
    const work = new PasswordWork({ concurrency: 1, queue: 0 });
    await expect(work.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await work.run(async () => 'next')).toBe('next');
  });
});
