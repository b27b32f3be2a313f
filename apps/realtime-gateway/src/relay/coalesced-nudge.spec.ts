import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CoalescedNudge } from './coalesced-nudge';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('CoalescedNudge', () => {
  it('gathers the nudges of one window into one look, made when the window ends', () => {
    let looks = 0;
    const nudge = new CoalescedNudge(5, () => looks++);
    nudge.request();
    vi.advanceTimersByTime(2);
    nudge.request();
    nudge.request();
    vi.advanceTimersByTime(2);
    expect(looks).toBe(0);
    vi.advanceTimersByTime(1);
    expect(looks).toBe(1);
    vi.advanceTimersByTime(100);
    expect(looks).toBe(1);
  });

  it('never holds a nudge past the window, however steadily they come', () => {
    let looks = 0;
    const nudge = new CoalescedNudge(5, () => looks++);
    // A nudge every millisecond for 20 ms: one look every 5 ms, not one at the end.
    for (let millisecond = 0; millisecond < 20; millisecond++) {
      nudge.request();
      vi.advanceTimersByTime(1);
    }
    expect(looks).toBe(4);
  });

  it('opens a new window for a nudge after the look, so none is lost', () => {
    let looks = 0;
    const nudge = new CoalescedNudge(5, () => looks++);
    nudge.request();
    vi.advanceTimersByTime(5);
    nudge.request();
    vi.advanceTimersByTime(5);
    expect(looks).toBe(2);
  });

  it('makes no look after a cancel', () => {
    let looks = 0;
    const nudge = new CoalescedNudge(5, () => looks++);
    nudge.request();
    nudge.cancel();
    vi.advanceTimersByTime(10);
    expect(looks).toBe(0);
  });
});
