import { fake } from '@platform/testing-doubles';
import { describe, expect, it } from 'vitest';
import { CLOSE_CODES } from './frames';
import { OpenSockets } from './open-sockets';
import { SocketHeartbeat } from './socket-heartbeat';
import { subscriberDouble } from '../../test/doubles/sockets.fakes';

const heartbeatOver = (...subscribers: ReturnType<typeof subscriberDouble>['subscriber'][]) =>
  new SocketHeartbeat(fake<OpenSockets>({ [Symbol.iterator]: () => subscribers[Symbol.iterator]() }), { heartbeatMs: 30_000 });

describe('SocketHeartbeat', () => {
  it('pings a socket that answered since the last beat, and closes one that answered nothing (4408)', () => {
    const { subscriber, calls, closes } = subscriberDouble();
    const heartbeat = heartbeatOver(subscriber);
    heartbeat.beat();
    expect(calls).toEqual(['ping']);
    expect(closes).toEqual([]);
    heartbeat.beat();
    expect(closes).toEqual([`${CLOSE_CODES.idle} idle`]);
    expect(calls).toEqual(['ping', 'terminate']);
  });

  it('tells a live socket the offset it passed in silence, once', () => {
    const { subscriber, sent } = subscriberDouble();
    subscriber.state = 'live';
    subscriber.offset = '5-0';
    const heartbeat = heartbeatOver(subscriber);
    heartbeat.beat();
    subscriber.alive = true;
    heartbeat.beat();
    expect(sent).toEqual(['heartbeat 5-0']);
  });
});
