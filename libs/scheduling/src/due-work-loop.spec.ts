import { afterEach, describe, expect, it } from 'vitest';
import { DueWorkLoop } from './due-work-loop';

/** A row of work: `attempt` resolves when the test releases it. */
interface HeldAttempt {
  row: number;
  release: () => void;
}

/**
 * A loop over an in-memory queue of rows, whose attempts the test holds and
 * releases, so it can see how many run at once, never by the clock.
 */
class QueueLoop extends DueWorkLoop {
  readonly due: number[] = [];
  readonly held: HeldAttempt[] = [];
  readonly done: number[] = [];
  mostAtOnce = 0;

  constructor(concurrency: number, pollMs = 60_000) {
    super(pollMs, 'test loop', concurrency);
  }

  protected async attemptDue(): Promise<boolean> {
    await Promise.resolve();
    const row = this.due.shift();
    if (row === undefined) return false;
    this.moreDue();
    await new Promise<void>((release) => {
      this.held.push({ row, release });
      this.mostAtOnce = Math.max(this.mostAtOnce, this.held.length);
    });
    this.held.splice(this.held.findIndex((attempt) => attempt.row === row), 1);
    this.done.push(row);
    return true;
  }
}

/**
 * Lets the loop's timer of zero delay fire (a timer set after it, for longer,
 * fires after it: Node runs timers in the order they expire), then every
 * pending promise it started.
 */
const settle = async () => {
  await new Promise((resolve) => setTimeout(resolve, 1));
  for (let round = 0; round < 20; round += 1) await new Promise((resolve) => setImmediate(resolve));
};

const loops: QueueLoop[] = [];
const started = (loop: QueueLoop) => {
  loops.push(loop);
  loop.onApplicationBootstrap();
  return loop;
};

afterEach(async () => {
  for (const loop of loops.splice(0)) {
    for (const attempt of loop.held) attempt.release();
    await loop.beforeApplicationShutdown();
  }
});

describe('DueWorkLoop', () => {
  it('runs up to its concurrency of attempts at once, and no more, while rows are due', async () => {
    const loop = new QueueLoop(3);
    loop.due.push(1, 2, 3, 4, 5);
    started(loop);
    await settle();
    expect(loop.held.map((attempt) => attempt.row)).toEqual([1, 2, 3]);

    loop.held[0].release();
    await settle();
    expect(loop.held.map((attempt) => attempt.row).sort()).toEqual([2, 3, 4]);
    while (loop.held.length > 0) {
      for (const attempt of [...loop.held]) attempt.release();
      await settle();
    }
    expect(loop.done.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(loop.mostAtOnce).toBe(3);
  });

  it('works one row at a time with one lane', async () => {
    const loop = started(new QueueLoop(1));
    loop.due.push(1, 2);
    loop.nudge();
    await settle();
    expect(loop.held.map((attempt) => attempt.row)).toEqual([1]);
    loop.held[0].release();
    await settle();
    expect(loop.held.map((attempt) => attempt.row)).toEqual([2]);
  });

  it('takes rows that became due while it was idle when nudged, without waiting for the poll', async () => {
    const loop = started(new QueueLoop(2));
    await settle();
    expect(loop.held).toEqual([]);
    loop.due.push(7);
    loop.nudge();
    await settle();
    expect(loop.held.map((attempt) => attempt.row)).toEqual([7]);
  });

  it('looks again after a nudge that came while every lane was busy', async () => {
    const loop = started(new QueueLoop(1));
    loop.due.push(1);
    loop.nudge();
    await settle();
    loop.due.push(2);
    loop.nudge();
    loop.held[0].release();
    await settle();
    expect(loop.held.map((attempt) => attempt.row)).toEqual([2]);
  });

  it('waits for the attempts in flight on a graceful stop, and starts none after it', async () => {
    const loop = new QueueLoop(2);
    loop.due.push(1, 2, 3);
    started(loop);
    await settle();
    let stopped = false;
    const stopping = loop.beforeApplicationShutdown().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    for (const attempt of [...loop.held]) attempt.release();
    await stopping;
    expect(loop.done.sort()).toEqual([1, 2]);
    loop.nudge();
    await settle();
    expect(loop.held).toEqual([]);
  });

  it('goes on after an attempt that threw, at the next look', async () => {
    class FailingOnce extends QueueLoop {
      private failed = false;
      protected override async attemptDue(): Promise<boolean> {
        if (!this.failed) {
          this.failed = true;
          throw new Error('database unreachable');
        }
        return super.attemptDue();
      }
    }
    const loop = started(new FailingOnce(1));
    loop.due.push(1);
    await settle();
    expect(loop.held).toEqual([]);
    loop.nudge();
    await settle();
    expect(loop.held.map((attempt) => attempt.row)).toEqual([1]);
  });
});
