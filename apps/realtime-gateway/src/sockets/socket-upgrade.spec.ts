import type { IncomingMessage } from 'node:http';
import { AppException } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { assertWebSocketHandshake } from './socket-upgrade';

const valid = { method: 'GET', headers: { upgrade: 'WebSocket', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' } };
const refusedField = (request: { method: string; headers: Record<string, string | undefined> }) => {
  try {
    assertWebSocketHandshake(request as unknown as IncomingMessage);
    return undefined;
  } catch (error) {
    const body = (error as AppException).toBody();
    return `${body.error_code} ${body.fields?.map((field) => field.field).join(',')}`;
  }
};

describe('assertWebSocketHandshake', () => {
  it('takes a handshake the WebSocket library accepts, in version 13 or 8', () => {
    expect(refusedField(valid)).toBeUndefined();
    expect(refusedField({ ...valid, headers: { ...valid.headers, 'sec-websocket-version': '8' } })).toBeUndefined();
  });

  it('refuses in the envelope (1002) on the header at fault rather than with a bare 400', () => {
    expect(refusedField({ ...valid, method: 'POST' })).toBe('1002 method');
    expect(refusedField({ ...valid, headers: { ...valid.headers, upgrade: 'h2c' } })).toBe('1002 upgrade');
    expect(refusedField({ ...valid, headers: { ...valid.headers, 'sec-websocket-key': 'short' } })).toBe('1002 sec-websocket-key');
    expect(refusedField({ ...valid, headers: { ...valid.headers, 'sec-websocket-version': '12' } })).toBe('1002 sec-websocket-version');
  });
});
