import { describe, expect, it } from 'vitest';
import { ConnectionState, RealtimeClient, RealtimeEvent, SocketLike, Timers } from './realtime-client';

/** A socket the test plays the gateway on: what the client sent, and frames or a close to hand it. */
class ScriptedSocket implements SocketLike {
  readonly sent: Record<string, unknown>[] = [];
  closedByClient: number | undefined;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  constructor(readonly url: string) {}
  send(text: string): void {
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }
  close(code?: number): void {
    this.closedByClient = code;
  }
  frame(frame: Record<string, unknown>): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(code: number): void {
    this.onclose?.({ code });
  }
}

/** Timers the test fires by hand, with the delays the client asked for. */
class ManualTimers implements Timers {
  pending: { callback: () => void; ms: number; handle: number }[] = [];
  private next = 0;
  set(callback: () => void, ms: number): unknown {
    const handle = ++this.next;
    this.pending.push({ callback, ms, handle });
    return handle;
  }
  clear(handle: unknown): void {
    this.pending = this.pending.filter((timer) => timer.handle !== handle);
  }
  fire(): number {
    const timer = this.pending.shift();
    if (!timer) throw new Error('no timer pending');
    timer.callback();
    return timer.ms;
  }
}

/** Lets the client's pending promises (the ticket's) settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function harness(options: { ticketFailures?: number } = {}) {
  const sockets: ScriptedSocket[] = [];
  const events: RealtimeEvent[] = [];
  const states: ConnectionState[] = [];
  const tickets: string[] = [];
  let resyncs = 0;
  let ticketFailures = options.ticketFailures ?? 0;
  const timers = new ManualTimers();
  const client = new RealtimeClient({
    gatewayUrl: 'ws://gateway.test',
    requestTicket: async () => {
      if (ticketFailures > 0) {
        ticketFailures -= 1;
        throw new Error('services-api away');
      }
      const ticket = `ticket ${tickets.length + 1}`;
      tickets.push(ticket);
      return ticket;
    },
    openSocket: (url) => {
      const socket = new ScriptedSocket(url);
      sockets.push(socket);
      return socket;
    },
    onEvent: (event) => events.push(event),
    onResync: () => (resyncs += 1),
    onStateChange: (state) => states.push(state),
    timers,
    backoff: (attempt) => attempt * 1000,
  });
  return { client, sockets, events, states, tickets, timers, resyncs: () => resyncs, last: () => sockets[sockets.length - 1] };
}

const event = (id: string, offset: string, epoch = 'e1') => ({ type: 'event', epoch, offset, event: { id, type: 'message.created', occurredAt: '2026-01-01T00:00:00Z', subject: 'session:s', data: {} } });

describe('the real-time client', () => {
  it('opens the socket with a ticket of its own, subscribes on the first welcome and asks for a refetch once subscribed', async () => {
    const { client, last, resyncs, states } = harness();
    client.start();
    await settle();
    expect(last().url).toBe('ws://gateway.test/v1/realtime?ticket=ticket%201');
    last().frame({ type: 'welcome', connectionID: 'c', tenantID: 't', heartbeatSeconds: 25 });
    expect(last().sent).toEqual([{ type: 'subscribe' }]);
    last().frame({ type: 'subscribed', epoch: 'e1', offset: '10-0' });
    expect(resyncs()).toBe(1);
    expect(states).toEqual(['connecting', 'live']);
  });

  it('after a drop, resumes with a new ticket from the last event or heartbeat it received, and asks for no refetch', async () => {
    const { client, sockets, last, events, resyncs, states, timers, tickets } = harness();
    client.start();
    await settle();
    last().frame({ type: 'welcome' });
    last().frame({ type: 'subscribed', epoch: 'e1', offset: '10-0' });
    last().frame(event('a', '11-0'));
    last().frame({ type: 'heartbeat', epoch: 'e1', offset: '15-0' });
    last().drop(1006);
    expect(states.at(-1)).toBe('reconnecting');
    expect(timers.fire()).toBe(1000);
    await settle();
    expect(sockets).toHaveLength(2);
    expect(tickets).toEqual(['ticket 1', 'ticket 2']);
    last().frame({ type: 'welcome' });
    expect(last().sent).toEqual([{ type: 'resume', epoch: 'e1', offset: '15-0' }]);
    last().frame({ type: 'subscribed', epoch: 'e1', offset: '15-0' });
    last().frame(event('b', '16-0'));
    expect(events.map((received) => received.id)).toEqual(['a', 'b']);
    expect(resyncs()).toBe(1);
    expect(states.at(-1)).toBe('live');
    expect(client.lastPosition()).toEqual({ epoch: 'e1', offset: '16-0' });
  });

  it('hands on an event id once, however many times the gateway delivers it', async () => {
    const { client, last, events } = harness();
    client.start();
    await settle();
    last().frame({ type: 'welcome' });
    last().frame({ type: 'subscribed', epoch: 'e1', offset: '1-0' });
    last().frame(event('a', '2-0'));
    last().frame(event('a', '3-0'));
    last().frame(event('b', '4-0'));
    expect(events.map((received) => received.id)).toEqual(['a', 'b']);
    expect(client.lastPosition()).toEqual({ epoch: 'e1', offset: '4-0' });
  });

  it('asks for a refetch on resync-required, live or as the answer to a resume, and goes on from its position', async () => {
    const { client, last, resyncs, timers, states } = harness();
    client.start();
    await settle();
    last().frame({ type: 'welcome' });
    last().frame({ type: 'subscribed', epoch: 'e1', offset: '1-0' });
    last().frame({ type: 'resync-required', epoch: 'e1', offset: '9-0' });
    expect(resyncs()).toBe(2);
    last().drop(1006);
    timers.fire();
    await settle();
    last().frame({ type: 'welcome' });
    expect(last().sent).toEqual([{ type: 'resume', epoch: 'e1', offset: '9-0' }]);
    last().frame({ type: 'resync-required', epoch: 'e2', offset: '1-0' });
    expect(resyncs()).toBe(3);
    expect(states.at(-1)).toBe('live');
    expect(client.lastPosition()).toEqual({ epoch: 'e2', offset: '1-0' });
  });

  it('comes back after the delay a stopping replica chose, and backs off further while attempts fail', async () => {
    const { client, last, timers } = harness();
    client.start();
    await settle();
    last().frame({ type: 'welcome' });
    last().frame({ type: 'subscribed', epoch: 'e1', offset: '1-0' });
    last().frame({ type: 'reconnect', afterMs: 1234 });
    last().drop(1012);
    expect(timers.fire()).toBe(1234);
    await settle();
    // The attempts after it fail before subscribing: each waits longer.
    last().drop(1006);
    expect(timers.fire()).toBe(2000);
    await settle();
    last().drop(1006);
    expect(timers.fire()).toBe(3000);
  });

  it('tries again when no ticket could be had', async () => {
    const { client, sockets, timers, states } = harness({ ticketFailures: 2 });
    client.start();
    await settle();
    expect(sockets).toHaveLength(0);
    expect(timers.fire()).toBe(1000);
    await settle();
    expect(timers.fire()).toBe(2000);
    await settle();
    expect(sockets).toHaveLength(1);
    expect(states).toEqual(['connecting', 'reconnecting']);
  });

  it('stops for good when its access to the tenant is revoked, and when stopped', async () => {
    const revoked = harness();
    revoked.client.start();
    await settle();
    revoked.last().drop(4403);
    expect(revoked.states.at(-1)).toBe('revoked');
    expect(revoked.timers.pending).toEqual([]);

    const stopped = harness();
    stopped.client.start();
    await settle();
    stopped.client.stop();
    expect(stopped.last().closedByClient).toBe(1000);
    expect(stopped.states.at(-1)).toBe('stopped');
    expect(stopped.timers.pending).toEqual([]);
  });
});
