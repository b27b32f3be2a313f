import { fake } from '@platform/testing-doubles';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SocketLeases } from '../presence/socket-leases';
import { ChannelRequestForwarder } from './channel-request-forwarder';
import { ClientFrames } from './client-frames';
import { CLOSE_CODES } from './frames';
import { subscriberDouble } from '../../test/doubles/sockets.fakes';
import { SocketSubscription } from './socket-subscription';

afterEach(() => {
  vi.useRealTimers();
});

const framesWithLimit = (maxFramesPer10s: number) =>
  new ClientFrames(fake<SocketSubscription>({ abandon: () => undefined }), fake<ChannelRequestForwarder>(), fake<SocketLeases>(), { maxFramesPer10s });

describe('ClientFrames', () => {
  it('answers a ping with a pong, and closes (4429) a socket past its frames in 10 s', async () => {
    vi.useFakeTimers();
    const { subscriber, sent, closes } = subscriberDouble();
    const frames = framesWithLimit(2);
    await frames.received(subscriber, '{"type":"ping"}');
    await frames.received(subscriber, '{"type":"ping"}');
    expect(sent).toEqual(['pong', 'pong']);
    await frames.received(subscriber, '{"type":"ping"}');
    expect(closes).toEqual([`${CLOSE_CODES.tooManyFrames} too many frames`]);
  });

  it('counts the frames afresh once 10 s passed', async () => {
    vi.useFakeTimers();
    const { subscriber, sent, closes } = subscriberDouble();
    const frames = framesWithLimit(1);
    await frames.received(subscriber, '{"type":"ping"}');
    vi.advanceTimersByTime(10_000);
    await frames.received(subscriber, '{"type":"ping"}');
    expect(sent).toEqual(['pong', 'pong']);
    expect(closes).toEqual([]);
  });

  it('answers a binary frame, and activity from a plugin\'s socket, with an error frame', async () => {
    const { subscriber, sent } = subscriberDouble();
    const frames = framesWithLimit(10);
    await frames.received(subscriber, undefined);
    await frames.received(subscriber, '{"type":"activity"}');
    expect(sent).toEqual(['error', 'error']);
  });
});
