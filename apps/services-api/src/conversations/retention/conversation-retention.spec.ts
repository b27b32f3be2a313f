import { fake, FakeClock } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import type { SessionsRepository } from '../sessions/sessions.repository';
import { ConversationRetention } from './conversation-retention';

function setUp(retentionDays: number, expired: number) {
  const cutoffs: Date[] = [];
  let left = expired;
  const sessions = fake<SessionsRepository>({
    deleteClosedBefore: async (cutoff: Date, batch: number) => {
      cutoffs.push(cutoff);
      const deleted = Math.min(batch, left);
      left -= deleted;
      return deleted;
    },
  });
  const clock = new FakeClock(new Date('2026-11-28T12:00:00.000Z'));
  return { retention: new ConversationRetention(sessions, clock, { messageContentMaxCharacters: 10, fanoutPollMs: 1000, retentionDays, routingPollMs: 1000, routingSweepMs: 30_000 }), cutoffs };
}

describe('ConversationRetention', () => {
  it('deletes sessions closed before the retention, batch after batch until a short one', async () => {
    const { retention, cutoffs } = setUp(30, 450);
    expect(await retention.sweep()).toBe(450);
    expect(cutoffs).toHaveLength(3);
    expect(cutoffs[0].toISOString()).toBe('2026-10-29T12:00:00.000Z');
  });

  it('keeps everything when the retention is 0', async () => {
    const { retention, cutoffs } = setUp(0, 10);
    expect(await retention.sweep()).toBe(0);
    expect(cutoffs).toEqual([]);
  });
});
