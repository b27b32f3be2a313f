import { monitorEventLoopDelay } from 'node:perf_hooks';
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
 * hashes hold it about 4 s at a time. The longest hold is measured (the apps
 * run in this process) and compared with a generous bound, never a tight
 * one: wall-clock times of whole requests would mostly measure how loaded a
 * shared machine is.
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

  const timed = async (action: () => Promise<unknown>): Promise<number> => {
    const started = performance.now();
    await action();
    return performance.now() - started;
  };
  const fetchJwks = async () => {
    const response = await fetch(`${platform.coreUrl}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    await response.json();
  };
  const ping = () => transport.send(TransportPing, { sentAt: new Date().toISOString(), from: 'flood-test' });
  const slowest = async (action: () => Promise<unknown>, times: number) => {
    let worst = 0;
    for (let index = 0; index < times; index += 1) worst = Math.max(worst, await timed(action));
    return worst;
  };

  it('answers what it cannot hash soon 503 5903 with Retry-After at once, while the JWKS and the transport keep answering', async () => {
    const loopHold = monitorEventLoopDelay({ resolution: 10 });
    const flood = Array.from({ length: FLOOD }, (_, index) =>
      platform.api.core.POST('/v1/operators/sign-in', { body: { operatorEmail: `flood-${index}@acme-support.com.br`, password: 'not the password' } }),
    );
    loopHold.enable();
    // Both answer during the flood: a JWKS fetch and a transport round trip, each five times.
    await slowest(fetchJwks, 5);
    await slowest(ping, 5);
    const answers = await Promise.all(flood);
    loopHold.disable();

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

    // One hash's slice is about 100 ms; ten times that still tells a bound from none (about 4,000 ms).
    expect(loopHold.max / 1e6).toBeLessThan(1_000);
  });
});
