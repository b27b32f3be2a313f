/**
 * Gathers the nudges that arrive within `windowMs` of the first into one.
 * At 500 commits a second a nudge each made the relay claim, append and
 * mark one event per transaction, and the gateways read it in an XREAD of
 * its own (docs/benchmarks.md#real-time); a few milliseconds' wait lets the
 * relay take what committed meanwhile in one batch.
 *
 * No nudge waits longer than `windowMs`: the first one of a window sets the
 * timer, and those after it ride on it. None is lost: the look the timer
 * starts reads every row committed by then, and a nudge after it fired
 * opens the next window.
 */
export class CoalescedNudge {
  private pending: NodeJS.Timeout | undefined;

  constructor(
    private readonly windowMs: number,
    private readonly nudge: () => void,
  ) {}

  request(): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.nudge();
    }, this.windowMs);
    this.pending.unref();
  }

  /** On stop: a pending nudge is dropped; the relay's own stop waits for its work in flight. */
  cancel(): void {
    clearTimeout(this.pending);
    this.pending = undefined;
  }
}
