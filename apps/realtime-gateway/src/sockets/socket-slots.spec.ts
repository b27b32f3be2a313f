import { AppException } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { SocketSlots } from './socket-slots';
import { SocketIdentity } from './subscriber';

const identity = (tenantID: string, limitKey: string) => ({ tenantID, limitKey }) as SocketIdentity;
const refusal = (check: () => void) => {
  try {
    check();
    return undefined;
  } catch (error) {
    return error instanceof AppException ? `${error.status} ${error.toBody().error_code}` : String(error);
  }
};

describe('SocketSlots', () => {
  it('refuses a principal past its sockets with 429, and takes it again once one closed', () => {
    const slots = new SocketSlots({ maxSocketsPerPrincipal: 2, maxSocketsPerTenant: 10 });
    const operator = identity('t', 'operator:1');
    slots.claim(operator);
    slots.claim(operator);
    expect(refusal(() => slots.check(operator))).toBe('429 1071');
    // Another principal of the tenant is counted apart.
    expect(refusal(() => slots.check(identity('t', 'operator:2')))).toBeUndefined();
    slots.release(operator);
    expect(refusal(() => slots.check(operator))).toBeUndefined();
  });

  it('refuses a tenant past its sockets, whoever asks, and counts each tenant apart', () => {
    const slots = new SocketSlots({ maxSocketsPerPrincipal: 10, maxSocketsPerTenant: 2 });
    slots.claim(identity('t', 'operator:1'));
    slots.claim(identity('t', 'plugin:p'));
    expect(refusal(() => slots.check(identity('t', 'operator:3')))).toBe('429 1071');
    expect(refusal(() => slots.check(identity('u', 'operator:1')))).toBeUndefined();
  });

  it('never counts below zero when a socket is released twice', () => {
    const slots = new SocketSlots({ maxSocketsPerPrincipal: 1, maxSocketsPerTenant: 1 });
    const operator = identity('t', 'operator:1');
    slots.release(operator);
    slots.claim(operator);
    expect(refusal(() => slots.check(operator))).toBe('429 1071');
  });
});
