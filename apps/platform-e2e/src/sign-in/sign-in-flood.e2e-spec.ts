import { TransportPing } from '@platform/contracts';
import { singleError } from '@platform/testing';
import { TransportClient } from '@platform/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';

/**
 * A sign-in flood against core-tenants, whose password hashes are bounded
 * (one at once, two waiting here), while the same process serves the JWKS
 * and the transport. What delays them is the event loop being held: bcryptjs
 * hashes in slices of up to 100 ms of wall-clock time, and every hash under
 * way takes its slice before the loop polls again, so without the bound 40
 * hashes hold it about 4 s at a time. What shows the bound is what the
 * flood is answered (503 5903 for what cannot be hashed soon) and that the
 * JWKS and the transport answer meanwhile, never how long anything took:
 * times would mostly measure how loaded a shared machine is.
 */
describe('sign-in flood on core-tenants', () => {
  let platform: TestPlatform;
  let transport: TransportClient;
  const FLOOD = 40;

  beforeAll(async () => {
    platform = await startPlatform({
      apps: ['core-tenants', 'services-api'],
      env: {
        PASSWORD_HASH_CONCURRENCY: '1',
        PASSWORD_HASH_QUEUE: '2',
        SIGN_IN_ATTEMPTS_PER_IP: '100000',
        SIGN_IN_ATTEMPTS_PER_ADDRESS_CEILING: '100000',
      },
    });
    transport = platform.apps['services-api']!.get(TransportClient);
  });
  afterAll(() => platform.close());

  const fetchJwks = async () => {
    const response = await fetch(`${platform.coreUrl}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    await response.json();
  };
  const ping = () => transport.send(TransportPing, { sentAt: new Date().toISOString(), from: 'flood-test' });
  const repeat = async (action: () => Promise<unknown>, times: number) => {
    for (let index = 0; index < times; index += 1) await action();
  };

  it('answers what it cannot hash soon 503 5903 with Retry-After at once, while the JWKS and the transport keep answering', async () => {
    const flood = Array.from({ length: FLOOD }, (_, index) =>
      platform.api.core.POST('/v1/operators/sign-in', { body: { operatorEmail: `flood-${index}@acme-support.com.br`, password: 'not the password' } }),
    );
    // Both answer during the flood: a JWKS fetch and a transport round trip, each five times.
    await repeat(fetchJwks, 5);
    await repeat(ping, 5);
    const answers = await Promise.all(flood);

    const refused = answers.filter((answer) => answer.response.status === 503);
    expect(answers.every((answer) => [401, 503].includes(answer.response.status))).toBe(true);
    // One hashing and two waiting when the burst lands: much of it is refused rather than queued
    // (how much depends on how fast the requests arrive; without the bound, none is).
    expect(refused.length).toBeGreaterThanOrEqual(FLOOD / 4);
    expect(singleError(refused[0]!.error)).toEqual({
      statusCode: 503,
      error: 'InternalServiceUnavailableError',
      error_code: 5903,
      message: 'An internal service is unavailable. Try again.',
    });
    expect(refused[0]!.response.headers.get('retry-after')).toBe('1');
  });
});
