import { fake } from '@platform/testing-doubles';
import { describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { StreamEntry, StreamRead } from '../streams/streamed-event';
import { framed } from './frames';
import { Subscriber } from './subscriber';

const EPOCH = 'the-epoch';
const entry = (offset: string): StreamEntry => ({ offset, epoch: EPOCH, event: { id: `event ${offset}`, type: 'session.opened', occurredAt: '', subject: null, data: {} } });
const lapsed = (offset: string): StreamRead => ({ offset, lapsed: true });

/** A plugin's socket, live after `offset`, and the frames it was sent, as `type offset`. */
function liveSubscriber(offset: string) {
  const sent: string[] = [];
  const socket = fake<WebSocket>({
    bufferedAmount: 0,
    send: (data: unknown) => {
      const frame = JSON.parse(String(data)) as { type: string; offset?: string };
      sent.push(`${frame.type} ${frame.offset}`);
    },
    close: () => undefined,
  });
  const subscriber = new Subscriber('s', socket, { tenantID: 't', principal: { kind: 'plugin', pluginID: 'p' }, audience: { kind: 'plugin', pluginID: 'p' }, standingSubject: 'plugin:p', limitKey: 'plugin:p' }, 1 << 20);
  subscriber.state = 'live';
  subscriber.epoch = EPOCH;
  subscriber.offset = offset;
  return { subscriber, sent };
}

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
});
