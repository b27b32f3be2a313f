import { describe, expect, it } from 'vitest';
import { effectivePresence, PresenceStatus, SocketFacts } from './presence-status';

/** The status rule of docs/presence.md, case by case (its state table). */
describe('effectivePresence', () => {
  const active: SocketFacts = { live: true, idle: false };
  const idle: SocketFacts = { live: true, idle: true };
  const gone: SocketFacts = { live: false, idle: false };
  const goneIdle: SocketFacts = { live: false, idle: true };

  it.each<[PresenceStatus, SocketFacts, PresenceStatus]>([
    ['online', active, 'online'],
    ['online', idle, 'away'],
    ['online', gone, 'offline'],
    ['online', goneIdle, 'offline'],
    ['busy', active, 'busy'],
    ['busy', idle, 'busy'],
    ['busy', gone, 'offline'],
    ['away', active, 'away'],
    ['away', idle, 'away'],
    ['away', gone, 'offline'],
    ['offline', active, 'offline'],
    ['offline', idle, 'offline'],
    ['offline', gone, 'offline'],
  ])('chosen %s with sockets %o is %s', (chosen, facts, expected) => {
    expect(effectivePresence(chosen, facts)).toBe(expected);
  });
});
