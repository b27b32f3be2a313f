import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, freshAddress, requestCode, SignUpPlatform, signUp, startSignUpPlatform } from '../sign-up/sign-up-support';

const ROTATIONS = '/v1/tenants/{tenantID}/webhooks/endpoints/{webhookEndpointID}/secret-rotations';

/** The cache directive of an answer. */
const cacheControlOf = (answer: { response: Response }) => answer.response.headers.get('cache-control');

/**
 * Every answer that hands out a credential or a ticket (docs/http-conventions.md,
 * Caching) is sent with `Cache-Control: no-store`, a replayed one too; other
 * answers are left to the client's defaults.
 */
describe('answers carrying a credential or a ticket', () => {
  let env: SignUpPlatform;
  let tenantID: string;
  let owner: string;
  let operator: { email: string; password: string };

  beforeAll(async () => {
    env = await startSignUpPlatform();
    const { fixtures } = env.platform;
    tenantID = await fixtures.tenant();
    const created = await fixtures.operator();
    await fixtures.membership(tenantID, created.operatorID, 'owner');
    operator = created;
    owner = `Bearer ${await env.platform.tokenFor(created.operatorID)}`;
  });
  afterAll(() => env?.close());

  it('sign-in: the operator token (core-tenants)', async () => {
    const answer = await env.platform.api.core.POST('/v1/operators/sign-in', { body: { operatorEmail: operator.email, password: operator.password } });
    expect(answer.data!.data.token).toEqual(expect.any(String));
    expect(cacheControlOf(answer)).toBe('no-store');
  });

  it('sign-up: the new operator token', async () => {
    const address = freshAddress();
    const since = env.smtp.mails.length;
    expect((await requestCode(env.platform, { operatorEmail: address, operatorFirstname: 'Ana' })).response.status).toBe(202);
    const code = codeOf(await env.smtp.nextMailTo(address, { since }));
    const answer = await signUp(env.platform, { operatorEmail: address, operatorFirstname: 'Ana', password: 'a long enough secret', emailVerificationCode: code });
    expect(answer.response.status).toBe(201);
    expect(cacheControlOf(answer)).toBe('no-store');
  });

  it('plugin installation: the connection token', async () => {
    const { pluginID } = await env.platform.fixtures.plugin();
    const answer = await env.platform.api.services.POST('/v1/tenants/{tenantID}/plugins/connections', { params: { path: { tenantID } }, headers: { authorization: owner }, body: { pluginID } });
    expect(answer.data!.data.pluginConnectionToken).toEqual(expect.any(String));
    expect(cacheControlOf(answer)).toBe('no-store');
  });

  it('real-time tickets', async () => {
    const answer = await env.platform.api.services.POST('/v1/tenants/{tenantID}/realtime-tickets', { params: { path: { tenantID } }, headers: { authorization: owner } });
    expect(answer.data!.data.ticket).toEqual(expect.any(String));
    expect(cacheControlOf(answer)).toBe('no-store');
  });

  it("webhook endpoints' signing secrets, on creation and on each rotation, replayed ones included", async () => {
    const created = await env.platform.api.services.POST('/v1/tenants/{tenantID}/webhooks/endpoints', {
      params: { path: { tenantID } },
      headers: { authorization: owner },
      body: { url: 'https://hooks.example.com/no-store', eventTypes: ['member.removed'] },
    });
    expect(created.data!.data.secret).toEqual(expect.any(String));
    expect(cacheControlOf(created)).toBe('no-store');
    const rotate = () =>
      env.platform.api.services.POST(ROTATIONS, {
        params: { path: { tenantID, webhookEndpointID: created.data!.data.webhookEndpointID } },
        headers: { authorization: owner, 'idempotency-key': 'no-store-rotation' },
      });
    const rotated = await rotate();
    const replayed = await rotate();
    expect(replayed.response.headers.get('idempotent-replayed')).toBe('true');
    for (const answer of [rotated, replayed]) {
      expect(answer.data!.data.secret).toEqual(expect.any(String));
      expect(cacheControlOf(answer)).toBe('no-store');
    }
  });

  it('leaves answers without a credential alone', async () => {
    const listed = await env.platform.api.services.GET('/v1/tenants/{tenantID}/webhooks/endpoints', { params: { path: { tenantID }, query: {} }, headers: { authorization: owner } });
    expect(listed.response.status).toBe(200);
    expect(cacheControlOf(listed)).toBeNull();
  });
});
