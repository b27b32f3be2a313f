import { fake } from '@platform/testing-doubles';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type WebSocket from 'ws';
import { StreamEntry, StreamRead } from '../streams/streamed-event';
import { CLOSE_CODES, framed } from './frames';
import { SocketIdentity, Subscriber } from './subscriber';
import type { Audience } from './visibility';

const EPOCH = 'the-epoch';
const BUFFER_LIMIT = 1 << 20;
const OPERATOR_ID = '11111111-1111-4111-8111-111111111111';
const OTHER_OPERATOR_ID = '22222222-2222-4222-8222-222222222222';
const entry = (offset: string, data: Record<string, unknown> = {}, epoch = EPOCH): StreamEntry => ({ offset, epoch, event: { id: `event ${offset}`, type: 'session.opened', occurredAt: '', subject: null, data } });
const lapsed = (offset: string): StreamRead => ({ offset, lapsed: true });

/**
 * A socket double: the frames sent, as `type offset` (and the epoch when it
 * is not the stream's first), the close it was given, and a buffer the test
 * fills or empties. With `connection`, it has the connection ws corks.
 */
function socketDouble(options: SocketOptions = {}) {
  const sent: string[] = [];
  const closes: string[] = [];
  const corks: string[] = [];
  const socket = {
    bufferedAmount: 0,
    send: (data: unknown) => {
      const frame = JSON.parse(String(data)) as { type: string; offset?: string; epoch?: string };
      sent.push(`${frame.type} ${frame.offset}${frame.epoch && frame.epoch !== EPOCH ? ` ${frame.epoch}` : ''}`);
      // A corked connection writes nothing: every frame waits in the buffer until the uncork.
      if (options.flushedOnUncork && corks.at(-1) === 'cork') socket.bufferedAmount += BUFFER_LIMIT;
    },
    close: (code: number, reason: string) => void closes.push(`${code} ${reason}`),
    ...(options.connection || options.flushedOnUncork
      ? {
          _socket: {
            cork: () => void corks.push('cork'),
            uncork: () => {
              corks.push('uncork');
              if (options.flushedOnUncork) socket.bufferedAmount = 0;
            },
          },
        }
      : {}),
  };
  return { socket, sent, closes, corks };
}

interface SocketOptions {
  /** The socket has the connection ws corks. */
  connection?: boolean;
  /** ...and the client reads everything as soon as the connection is uncorked. */
  flushedOnUncork?: boolean;
}

/** A subscriber in `state` that passed `offset`, for `audience` (a plugin, which sees every session event, unless told). */
function subscriberAt(offset: string, state: Subscriber['state'], options: SocketOptions & { audience?: Audience } = {}) {
  const double = socketDouble(options);
  const audience = options.audience ?? { kind: 'plugin', pluginID: 'p' };
  const identity: SocketIdentity = { tenantID: 't', principal: { kind: 'plugin', pluginID: 'p' }, audience, standingSubject: 'plugin:p', limitKey: 'plugin:p' };
  const subscriber = new Subscriber('s', fake<WebSocket>(double.socket as unknown as Partial<WebSocket>), identity, BUFFER_LIMIT);
  subscriber.state = state;
  subscriber.epoch = EPOCH;
  subscriber.offset = offset;
  return { subscriber, ...double };
}

/** A plugin's socket, live after `offset`, and the frames it was sent, as `type offset`. */
const liveSubscriber = (offset: string) => subscriberAt(offset, 'live');

afterEach(() => {
  vi.useRealTimers();
});

describe('Subscriber', () => {
  it('answers entries that lapsed before it reached them with one resync-required, then delivers what follows', () => {
    const { subscriber, sent } = liveSubscriber('1-0');
    for (const read of [entry('2-0'), lapsed('3-0'), lapsed('4-0')]) subscriber.deliver(read);
    expect(sent).toEqual(['event 2-0', 'resync-required 3-0']);
    // The lapsed entries passed after the resync are told with the next heartbeat, so a resume starts after them.
    expect(subscriber.untoldOffset()).toBe('4-0');
    for (const read of [entry('5-0'), lapsed('6-0')]) subscriber.deliver(read);
    expect(sent).toEqual(['event 2-0', 'resync-required 3-0', 'event 5-0', 'resync-required 6-0']);
  });

  it('delivers live entries that lapsed, held back while catching up, as a resync too', () => {
    const { subscriber, sent } = liveSubscriber('1-0');
    subscriber.state = 'catching-up';
    subscriber.receiveLive([framed(entry('2-0')), { offset: '3-0', lapsed: true }, framed(entry('4-0'))]);
    expect(sent).toEqual([]);
    subscriber.goLive();
    expect(sent).toEqual(['event 2-0', 'resync-required 3-0', 'event 4-0']);
  });

  it('never delivers an entry at or before the offset it passed', () => {
    const { subscriber, sent } = liveSubscriber('5-0');
    for (const read of [entry('4-0'), entry('5-0'), lapsed('3-0'), entry('6-0'), entry('6-0')]) subscriber.deliver(read);
    expect(sent).toEqual(['event 6-0']);
  });

  describe('idle (not subscribed yet)', () => {
    it('is handed live entries but sends none, and holds none for later', () => {
      const { subscriber, sent } = subscriberAt('', 'idle');
      subscriber.receiveLive([framed(entry('2-0')), framed(entry('3-0'))]);
      expect(sent).toEqual([]);
      // Only a socket catching up goes live: an idle one stays idle, and what it was handed is gone.
      subscriber.goLive();
      expect(subscriber.state).toBe('idle');
      subscriber.state = 'catching-up';
      subscriber.offset = '1-0';
      subscriber.goLive();
      expect(sent).toEqual([]);
    });
  });

  describe('catching up from an offset', () => {
    it('sends the replay at once, holds back what arrives live meanwhile, and sends it in order on going live', () => {
      const { subscriber, sent } = subscriberAt('1-0', 'catching-up');
      subscriber.deliver(entry('2-0'));
      subscriber.receiveLive([framed(entry('4-0'))]);
      subscriber.deliver(entry('3-0'));
      subscriber.receiveLive([framed(entry('5-0')), framed(entry('6-0'))]);
      expect(sent).toEqual(['event 2-0', 'event 3-0']);
      expect(subscriber.state).toBe('catching-up');
      subscriber.goLive();
      expect(subscriber.state).toBe('live');
      expect(sent).toEqual(['event 2-0', 'event 3-0', 'event 4-0', 'event 5-0', 'event 6-0']);
    });

    it('sends each entry once where the replay and the live entries held back overlap', () => {
      const { subscriber, sent } = subscriberAt('1-0', 'catching-up');
      // The fan-out read from the tail it saw at the join; the replay read on past it, to the stream's tail then.
      subscriber.receiveLive([framed(entry('3-0')), framed(entry('4-0'))]);
      for (const read of [entry('2-0'), entry('3-0'), entry('4-0')]) subscriber.deliver(read);
      subscriber.receiveLive([framed(entry('5-0'))]);
      subscriber.goLive();
      expect(sent).toEqual(['event 2-0', 'event 3-0', 'event 4-0', 'event 5-0']);
      expect(subscriber.offset).toBe('5-0');
    });

    it('goes live with nothing held back, then sends live entries as they come', () => {
      const { subscriber, sent } = subscriberAt('1-0', 'catching-up');
      subscriber.goLive();
      expect(sent).toEqual([]);
      subscriber.receiveLive([framed(entry('2-0'))]);
      expect(sent).toEqual(['event 2-0']);
    });

    it('closes as a slow consumer once it would hold back more than 10,000 live entries, and sends none of them', () => {
      const { subscriber, sent, closes } = subscriberAt('1-0', 'catching-up');
      const held = Array.from({ length: 10_000 }, (_, index) => framed(entry(`${index + 2}-0`)));
      subscriber.receiveLive(held);
      expect(closes).toEqual([]);
      subscriber.receiveLive([framed(entry('10002-0'))]);
      expect(closes).toEqual([`${CLOSE_CODES.slowConsumer} slow consumer`]);
      subscriber.goLive();
      expect(sent).toEqual([]);
    });
  });

  describe('a gap', () => {
    it('tells the client to resync at an entry of a new epoch (the stream began again), then delivers that epoch', () => {
      const { subscriber, sent } = liveSubscriber('7-0');
      subscriber.receiveLive([framed(entry('8-0', {}, 'a-new-epoch')), framed(entry('9-0', {}, 'a-new-epoch'))]);
      expect(sent).toEqual(['resync-required 8-0 a-new-epoch', 'event 9-0 a-new-epoch']);
      expect(subscriber.epoch).toBe('a-new-epoch');
    });

    it('tells a replay that reaches entries past the window to resync there, once, and replays what follows', () => {
      const { subscriber, sent } = subscriberAt('1-0', 'catching-up');
      for (const read of [lapsed('2-0'), lapsed('3-0'), entry('4-0')]) subscriber.deliver(read);
      subscriber.goLive();
      expect(sent).toEqual(['resync-required 2-0', 'event 4-0']);
    });
  });

  describe('visibility', () => {
    it("passes the entries its audience may not see without sending them, and tells that offset with the heartbeat once live", () => {
      const { subscriber, sent } = subscriberAt('1-0', 'catching-up', { audience: { kind: 'operator', operatorID: OPERATOR_ID } });
      subscriber.deliver(entry('2-0', { listed: true }));
      subscriber.deliver(entry('3-0', { listed: false, operatorID: OTHER_OPERATOR_ID }));
      // Not told while catching up: the replay's position is not the client's yet.
      expect(subscriber.untoldOffset()).toBeUndefined();
      subscriber.goLive();
      subscriber.receiveLive([framed(entry('4-0', { listed: false, operatorID: OPERATOR_ID })), framed(entry('5-0', { listed: false }))]);
      expect(sent).toEqual(['event 2-0', 'event 4-0']);
      expect(subscriber.untoldOffset()).toBe('5-0');
      subscriber.markTold('5-0');
      expect(subscriber.untoldOffset()).toBeUndefined();
    });
  });

  describe('closed', () => {
    it('mid catch-up: sends neither the rest of the replay nor what it held back, and closes the socket once', () => {
      const { subscriber, sent, closes } = subscriberAt('1-0', 'catching-up');
      subscriber.deliver(entry('2-0'));
      subscriber.receiveLive([framed(entry('4-0'))]);
      subscriber.close(CLOSE_CODES.restarting, 'restarting');
      subscriber.deliver(entry('3-0'));
      subscriber.receiveLive([framed(entry('5-0'))]);
      subscriber.goLive();
      subscriber.close(CLOSE_CODES.idle, 'idle');
      expect(sent).toEqual(['event 2-0']);
      expect(subscriber.state).toBe('closed');
      expect(closes).toEqual([`${CLOSE_CODES.restarting} restarting`]);
    });

    it('when the client went away mid catch-up (the socket closed under it), does not go live', () => {
      const { subscriber, sent } = subscriberAt('1-0', 'catching-up');
      subscriber.receiveLive([framed(entry('2-0'))]);
      subscriber.state = 'closed';
      subscriber.goLive();
      subscriber.send({ type: 'pong' });
      expect(subscriber.state).toBe('closed');
      expect(sent).toEqual([]);
    });
  });

  describe('a slow consumer', () => {
    it('is closed with 4413 once more than its buffer limit waits to be sent, and sent nothing after', () => {
      const { subscriber, socket, sent, closes } = liveSubscriber('1-0');
      subscriber.receiveLive([framed(entry('2-0'))]);
      socket.bufferedAmount = BUFFER_LIMIT + 1;
      subscriber.receiveLive([framed(entry('3-0'))]);
      subscriber.receiveLive([framed(entry('4-0'))]);
      expect(sent).toEqual(['event 2-0', 'event 3-0']);
      expect(closes).toEqual([`${CLOSE_CODES.slowConsumer} slow consumer`]);
    });

    it('is not closed for a batch gathered into one write, and gets the batch whole, in order, with its connection uncorked after', () => {
      const { subscriber, sent, closes, corks } = subscriberAt('1-0', 'live', { flushedOnUncork: true });
      subscriber.receiveLive([framed(entry('2-0')), framed(entry('3-0')), framed(entry('4-0'))]);
      expect(sent).toEqual(['event 2-0', 'event 3-0', 'event 4-0']);
      expect(corks).toEqual(['cork', 'uncork']);
      expect(closes).toEqual([]);
    });

    it('is closed after a gathered batch when the buffer stays over its limit once uncorked', () => {
      const { subscriber, socket, closes, corks } = subscriberAt('1-0', 'live', { connection: true });
      socket.bufferedAmount = BUFFER_LIMIT + 1;
      subscriber.receiveLive([framed(entry('2-0')), framed(entry('3-0'))]);
      expect(corks.at(-1)).toBe('uncork');
      expect(closes).toEqual([`${CLOSE_CODES.slowConsumer} slow consumer`]);
    });
  });

  describe('a replay waiting for the client to read (drained)', () => {
    it('goes on once the client read its buffer below half the limit', async () => {
      vi.useFakeTimers();
      const { subscriber, socket, closes } = subscriberAt('1-0', 'catching-up');
      socket.bufferedAmount = BUFFER_LIMIT;
      const drained = subscriber.drained();
      await vi.advanceTimersByTimeAsync(1_000);
      socket.bufferedAmount = BUFFER_LIMIT / 2;
      await vi.advanceTimersByTimeAsync(10);
      expect(await drained).toBe(true);
      expect(closes).toEqual([]);
    });

    it('closes a client that reads nothing for ten seconds as a slow consumer', async () => {
      vi.useFakeTimers();
      const { subscriber, socket, closes } = subscriberAt('1-0', 'catching-up');
      socket.bufferedAmount = BUFFER_LIMIT;
      const drained = subscriber.drained();
      await vi.advanceTimersByTimeAsync(9_000);
      expect(closes).toEqual([]);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(await drained).toBe(false);
      expect(closes).toEqual([`${CLOSE_CODES.slowConsumer} slow consumer`]);
    });

    it('stops waiting, answering false, when the socket closed meanwhile', async () => {
      vi.useFakeTimers();
      const { subscriber, socket } = subscriberAt('1-0', 'catching-up');
      socket.bufferedAmount = BUFFER_LIMIT;
      const drained = subscriber.drained();
      subscriber.close(CLOSE_CODES.restarting, 'restarting');
      await vi.advanceTimersByTimeAsync(10);
      expect(await drained).toBe(false);
    });
  });
});
