import { describe, expect, it } from 'vitest';
import { boundedRead, ScrapeReadTimeout } from './bounded-read';

describe('boundedRead', () => {
  it('answers the reading', async () => {
    const read = boundedRead(async () => 42);
    await expect(read()).resolves.toBe(42);
  });

  it('gives up on a reading that does not come, instead of hanging the scrape', async () => {
    const read = boundedRead(() => new Promise<number>(() => undefined), 10);
    await expect(read()).rejects.toBeInstanceOf(ScrapeReadTimeout);
  });

  it('shares the reading under way instead of starting another, even after callers gave up on it', async () => {
    let started = 0;
    let finish!: (value: number) => void;
    const read = boundedRead(() => {
      started += 1;
      return new Promise<number>((resolve) => (finish = resolve));
    }, 10);
    await expect(read()).rejects.toBeInstanceOf(ScrapeReadTimeout);
    const waiting = [read(), read()];
    finish(7);
    await expect(Promise.all(waiting)).resolves.toEqual([7, 7]);
    expect(started).toBe(1);
  });

  it('starts a new reading once the previous one finished', async () => {
    let value = 0;
    const read = boundedRead(async () => ++value);
    await expect(read()).resolves.toBe(1);
    await expect(read()).resolves.toBe(2);
  });

  it('passes a failed reading on to its callers', async () => {
    const read = boundedRead(async () => {
      throw new Error('database away');
    });
    await expect(read()).rejects.toThrow('database away');
  });
});
