import type { OnApplicationShutdown } from '@nestjs/common';
import type { FixedWindowCounters, WindowCounter, WindowReading } from './fixed-window-counters';

/**
 * A lease is a hundredth of the limit (at least 1): a budget of 3,000 a minute
 * is leased 30 requests at a time, one Redis round trip per 30 requests; a
 * budget under 200 is leased 1 at a time, as exact as a charge per request.
 */
export const LEASE_FRACTION = 100;

/** How long a replica answers from its block before it asks Redis again how the window stands. */
export const LEASE_REFRESH_MS = 1_000;

/** How many counters a replica keeps; past it, those whose window ended are dropped first. */
const MAX_KEPT = 10_000;

export function blockOf(limit: number): number {
  return Math.max(1, Math.floor(limit / LEASE_FRACTION));
}

/** This replica's share of one counter's window. */
interface Block {
  counter: WindowCounter;
  /** Leased requests not yet spent here. */
  unspent: number;
  /** The window's count in Redis at the last lease (every replica's leases). */
  count: number;
  /** When the window ends, by this replica's clock: measured from before the lease was sent, so never after Redis's own end. */
  endsAt: number;
  /** When this replica last asked Redis. */
  leasedAt: number;
  /** The last lease found the window spent: nothing left to lease until it ends. */
  exhausted: boolean;
}

/** A lease's answer: the block as it stands, and the reading of the request that asked for it. */
interface Lease {
  block: Block;
  reading: WindowReading;
}

/**
 * The request budgets' counters, spent locally from blocks leased from Redis
 * (docs/security.md, Rate limits and quotas; docs/scaling.md, Request budgets
 * and Redis). A replica leases a block of a counter's window atomically
 * (`FixedWindowCounters.lease`: never more than the limit leaves), spends it
 * without a round trip, and leases again when the block is spent, when the
 * window turns, or after `LEASE_REFRESH_MS` so that its view of the others'
 * spending stays fresh; at shutdown it gives back what it did not spend.
 * One lease per counter is in flight at a time: the request that sent it is
 * served from the answer in the same turn, the requests waiting on it next,
 * and a request that finds nothing left leases again. It refuses only when
 * a lease answers that the window has nothing left and the block is empty:
 * never because concurrent requests spent a block it had leased.
 *
 * All replicas together never serve more than the limit in a window: every
 * request served was leased from it. A replica may refuse while others still
 * hold unspent blocks: at most (replicas - 1) × block requests of a window go
 * unserved that way. `remaining` is the count at the last lease less this
 * replica's spending since: it misses what the other replicas spent since
 * that lease (at most a second ago).
 *
 * Same shape as `FixedWindowCounters.charge`: counters in order, stopping at
 * the first that refuses, so a principal over its own budget spends nothing
 * of its tenant's.
 */
export class LeasedWindows implements OnApplicationShutdown {
  private readonly blocks = new Map<string, Block>();
  /** The lease in flight per counter: one at a time, the others wait for it. */
  private readonly leasing = new Map<string, Promise<Lease>>();

  constructor(
    private readonly counters: FixedWindowCounters,
    private readonly now: () => number = Date.now,
  ) {}

  async charge(counters: readonly WindowCounter[]): Promise<WindowReading[]> {
    const readings: WindowReading[] = [];
    for (const counter of counters) {
      const reading = await this.spend(counter);
      readings.push(reading);
      if (!reading.allowed) break;
    }
    return readings;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.giveBack();
  }

  /**
   * Gives back every block's unspent requests (at shutdown), each to the
   * window it came from; a failure leaves them spent, which only refuses
   * early until the window ends.
   */
  async giveBack(): Promise<void> {
    const now = this.now();
    const held = [...this.blocks.values()].filter((block) => block.unspent > 0 && block.endsAt > now);
    this.blocks.clear();
    await Promise.allSettled(held.map((block) => this.counters.giveBack(block.counter, block.unspent, block.endsAt - now)));
  }

  /**
   * Serves the request from this replica's block, or from the lease in
   * flight, or leases. A request refuses only on a lease's answer that Redis
   * has nothing left of the window and the block nothing either: a block
   * other requests spent meanwhile sends it to lease again, never to a
   * refusal.
   */
  private async spend(counter: WindowCounter): Promise<WindowReading> {
    for (;;) {
      const kept = this.blocks.get(counter.key);
      if (kept && this.fresh(kept) && kept.unspent > 0) return this.take(kept);
      const inFlight = this.leasing.get(counter.key);
      if (!inFlight) return this.leaseAndSpend(counter);
      // Another request of this replica is asking Redis: its answer serves this one too, or says the window is spent.
      const { block } = await inFlight;
      if (block.unspent > 0) return this.take(block);
      if (block.exhausted && block.endsAt > this.now()) return this.refusal(block);
    }
  }

  private async leaseAndSpend(counter: WindowCounter): Promise<WindowReading> {
    const lease = this.lease(counter);
    this.leasing.set(counter.key, lease);
    return (await lease).reading;
  }

  /**
   * Tops this replica's block up to a whole block, or starts one in a new
   * window, and serves the request that asked from it in the same turn as
   * Redis's answer: requests arriving before that request resumes find the
   * block already charged for it, so they cannot spend its share.
   */
  private async lease(counter: WindowCounter): Promise<Lease> {
    try {
      const sentAt = this.now();
      const kept = this.blocks.get(counter.key);
      const live = kept && kept.endsAt > sentAt ? kept : undefined;
      const { granted, count, resetMs } = await this.counters.lease(counter, Math.max(blockOf(counter.limit) - (live?.unspent ?? 0), 0));
      // What is left of the block now, not when the lease was sent.
      const unspent = live && this.blocks.get(counter.key) === live ? live.unspent : 0;
      const block: Block = { counter, unspent: unspent + granted, count, endsAt: sentAt + resetMs, leasedAt: sentAt, exhausted: unspent + granted === 0 };
      this.keep(block);
      return { block, reading: block.exhausted ? this.refusal(block) : this.take(block) };
    } finally {
      // Answered or failed, in the same turn: the next request leases anew rather than waiting on this one.
      this.leasing.delete(counter.key);
    }
  }

  private fresh(block: Block): boolean {
    const now = this.now();
    return now < block.endsAt && now - block.leasedAt < LEASE_REFRESH_MS;
  }

  private take(block: Block): WindowReading {
    block.unspent -= 1;
    return { allowed: true, remaining: Math.max(block.counter.limit - block.count + block.unspent, 0), resetMs: block.endsAt - this.now() };
  }

  private refusal(block: Block): WindowReading {
    return { allowed: false, remaining: 0, resetMs: block.endsAt - this.now() };
  }

  private keep(block: Block): void {
    this.blocks.delete(block.counter.key);
    if (this.blocks.size >= MAX_KEPT) {
      const now = this.now();
      for (const [key, kept] of this.blocks) if (kept.endsAt <= now) this.blocks.delete(key);
      // Still full of live windows: drop the oldest; its unspent requests stay spent, refusing early at worst.
      if (this.blocks.size >= MAX_KEPT) this.blocks.delete(this.blocks.keys().next().value as string);
    }
    this.blocks.set(block.counter.key, block);
  }
}
