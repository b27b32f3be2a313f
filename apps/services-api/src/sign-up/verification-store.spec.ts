import { RedisCompatibleServer } from '@platform/local-services';
import type { PlatformMetrics } from '@platform/observability';
import { fake } from '@platform/testing-doubles';
import { TEST_REDIS_URL } from '@platform/test-support';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignUpKeys } from './sign-up-keys';
import { CODE_VALIDITY_MS, MAX_CODE_ATTEMPTS, VerificationStore } from './verification-store';

const OLD = 'sign-up-secret-being-retired-aaaaaaaaaaaaaaaa';
const NEW = 'sign-up-secret-taking-over-bbbbbbbbbbbbbbbbbb';

/** The same scripts on real Redis and on the quick start's in-memory server. */
describe.each(['redis', 'in-memory server'] as const)('VerificationStore on %s, across a SIGN_UP_SECRET rotation', (kind) => {
  let server: RedisCompatibleServer | undefined;
  let redis: Redis;
  let store: VerificationStore;
  const address = (name: string) => `${name}.${process.pid}.${Date.now()}@verification-store.test`;
  const now = 1_764_180_000_000;

  beforeAll(async () => {
    if (kind === 'in-memory server') server = await RedisCompatibleServer.start();
    redis = new Redis(server ? server.url(0) : TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    store = new VerificationStore(redis, fake<PlatformMetrics>({ refused: () => undefined }));
  });
  afterAll(async () => {
    const keys = await redis.keys('signup:v1:verification:*@verification-store.test');
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await server?.close();
  });

  it('accepts a code stored under the previous secret once the new one is current, and only once', async () => {
    const to = address('ana');
    await store.issue(to, { nonce: 'n1', codeHash: new SignUpKeys(OLD).codeHash(to, '042917'), now });
    const rotated = new SignUpKeys({ current: NEW, previous: OLD });
    expect(await store.verify(to, rotated.codeHashes(to, '042917'), now + 1_000)).toBe('ok');
    expect(await store.verify(to, rotated.codeHashes(to, '042917'), now + 2_000)).toBe('none');
  });

  it('counts a wrong code once however many keys the set holds, and burns the code after the last try', async () => {
    const to = address('bia');
    const rotated = new SignUpKeys({ current: NEW, previous: OLD });
    await store.issue(to, { nonce: 'n1', codeHash: rotated.codeHash(to, '042917'), now });
    for (let attempt = 1; attempt < MAX_CODE_ATTEMPTS; attempt++) expect(await store.verify(to, rotated.codeHashes(to, '000000'), now + attempt)).toBe('wrong');
    expect(await store.verify(to, rotated.codeHashes(to, '000000'), now + MAX_CODE_ATTEMPTS)).toBe('burnt');
    expect(await store.verify(to, rotated.codeHashes(to, '042917'), now + MAX_CODE_ATTEMPTS + 1)).toBe('none');
  });

  it('refuses a code stored under a secret no longer configured, and an expired one', async () => {
    const to = address('caio');
    await store.issue(to, { nonce: 'n1', codeHash: new SignUpKeys(OLD).codeHash(to, '042917'), now });
    expect(await store.verify(to, new SignUpKeys(NEW).codeHashes(to, '042917'), now + 1_000)).toBe('wrong');
    expect(await store.verify(to, new SignUpKeys(OLD).codeHashes(to, '042917'), now + CODE_VALIDITY_MS)).toBe('expired');
  });
});
