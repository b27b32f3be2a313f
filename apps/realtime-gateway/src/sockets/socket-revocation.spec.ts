import { CredentialStore, StandingInvalidations, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import { fake } from '@platform/testing-doubles';
import { describe, expect, it } from 'vitest';
import { CLOSE_CODES } from './frames';
import { OpenSockets } from './open-sockets';
import { subscriberDouble } from '../../test/doubles/sockets.fakes';
import { SocketRevocation } from './socket-revocation';
import { Subscriber } from './subscriber';

const operator = { kind: 'operator', operatorID: 'o1' } as never;
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A revocation over `subscribers`, with an access check that answers `answer`. */
function revocationOver(subscribers: Subscriber[], answer: () => Promise<void>) {
  const sockets = fake<OpenSockets>({
    [Symbol.iterator]: () => subscribers[Symbol.iterator](),
    ofTenant: (tenantID: string) => subscribers.filter((subscriber) => subscriber.identity.tenantID === tenantID),
  });
  const invalidations = fake<StandingInvalidations>({ onChange: () => undefined });
  return new SocketRevocation(sockets, fake<TenantAccessService>({ check: answer as never }), fake<CredentialStore>({ findLiveConnection: async () => null as never }), invalidations);
}

describe('SocketRevocation', () => {
  it('closes (4403) the sockets of the changed standing that are refused now, and only those', async () => {
    const concerned = subscriberDouble({ principal: operator, standingSubject: 'operator:o1' });
    const other = subscriberDouble({ principal: operator, standingSubject: 'operator:o2' });
    const otherTenant = subscriberDouble({ tenantID: 'u', principal: operator, standingSubject: 'operator:o1' });
    const revocation = revocationOver([concerned.subscriber, other.subscriber, otherTenant.subscriber], async () => {
      throw new AppException('Forbidden');
    });
    revocation.recheckStanding({ tenantID: 't', subject: 'operator:o1' } as never);
    await settle();
    expect(concerned.closes).toEqual([`${CLOSE_CODES.accessRevoked} access revoked`]);
    expect(other.closes).toEqual([]);
    expect(otherTenant.closes).toEqual([]);
  });

  it('keeps a socket open when the check is unavailable (Redis or PostgreSQL away)', async () => {
    const { subscriber, closes } = subscriberDouble({ principal: operator, standingSubject: 'operator:o1' });
    const revocation = revocationOver([subscriber], async () => {
      throw new AppException('InternalServiceUnavailable');
    });
    revocation.recheckAll();
    await settle();
    expect(closes).toEqual([]);
  });

  it('closes a plugin connection\'s socket once the connection is gone', async () => {
    const { subscriber, closes } = subscriberDouble({ principal: { kind: 'pluginConnection', pluginConnectionID: 'c' } as never });
    revocationOver([subscriber], async () => undefined).recheckAll();
    await settle();
    expect(closes).toEqual([`${CLOSE_CODES.accessRevoked} access revoked`]);
  });
});
