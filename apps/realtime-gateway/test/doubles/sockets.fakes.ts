import type { Principal } from '@platform/auth';
import { fake } from '@platform/testing-doubles';
import type WebSocket from 'ws';
import { SocketIdentity, Subscriber } from '../../src/sockets/subscriber';

/** A test's socket: the frames it was sent (by type), its closes, pings and terminations. */
export function socketDouble() {
  const sent: string[] = [];
  const closes: string[] = [];
  const calls: string[] = [];
  const socket = {
    bufferedAmount: 0,
    send: (data: unknown) => {
      const frame = JSON.parse(String(data)) as { type: string; offset?: string };
      sent.push(frame.offset === undefined ? frame.type : `${frame.type} ${frame.offset}`);
    },
    close: (code: number, reason: string) => void closes.push(`${code} ${reason}`),
    ping: () => void calls.push('ping'),
    terminate: () => void calls.push('terminate'),
  };
  return { socket: fake<WebSocket>(socket as unknown as Partial<WebSocket>), sent, closes, calls };
}

/** A subscriber of `tenantID` held by `principal` (a plugin unless told), on a socket double. */
export function subscriberDouble(options: { tenantID?: string; principal?: Principal; standingSubject?: string } = {}) {
  const double = socketDouble();
  const principal: Principal = options.principal ?? { kind: 'plugin', pluginID: 'p' };
  const identity: SocketIdentity = {
    tenantID: options.tenantID ?? 't',
    principal,
    audience: { kind: 'plugin', pluginID: 'p' },
    standingSubject: options.standingSubject ?? 'plugin:p',
    limitKey: 'plugin:p',
  };
  return { subscriber: new Subscriber('s', double.socket, identity, 1 << 20), ...double };
}
