import { OperatorFixture, ReceivedMail, singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshAddress, signUp, SignUpPlatform, startSignUpPlatform } from './sign-up-support';
import { sentAsIs } from '../support/sent-as-is';
import { describeStandardRefusals } from '../support/standard-refusals';

const PASSWORD = 'a long enough secret';
const TOKEN_ALLOWED = 'an unused, unexpired invitation token for operatorEmail';

/** The token is a secret: the refusal names the field without echoing it. */
const INVALID_TOKEN_BODY = {
  errors: [
    {
      statusCode: 400,
      error: 'RequestValidationError',
      error_code: 1002,
      message: 'Invalid request data.',
      fields: [{ field: 'invitationToken', allowed: TOKEN_ALLOWED }],
    },
  ],
};

/** The invitation token of an invitation mail (its text body, on a line of its own). */
function tokenOf(mail: ReceivedMail): string {
  const token = /^([A-Za-z0-9_-]{43})$/m.exec(mail.text)?.[1];
  if (!token) throw new Error(`no token in mail: ${mail.text}`);
  return token;
}

describe('tenant invitations: POST /v1/tenants/{tenantID}/operators/invitations, then POST /v1/operators with invitationToken', () => {
  let env: SignUpPlatform;
  let tenantID: string;
  let owner: OperatorFixture;
  let member: OperatorFixture;
  let ownerToken: string;

  const invite = (tenant: string, body: unknown, token: string | null = ownerToken, headers: Record<string, string> = {}) =>
    env.platform.api.services.POST('/v1/tenants/{tenantID}/operators/invitations', {
      params: { path: { tenantID: tenant } },
      ...sentAsIs(body),
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    });

  async function invitedToken(address: string): Promise<string> {
    const since = env.smtp.mails.length;
    const response = await invite(tenantID, { operatorEmail: address });
    expect(response.response.status).toBe(201);
    return tokenOf(await env.smtp.nextMailTo(address, { since }));
  }

  beforeAll(async () => {
    env = await startSignUpPlatform();
    tenantID = await env.platform.fixtures.tenant('Acme Atendimento');
    owner = await env.platform.fixtures.operator({ firstname: 'Olivia' });
    member = await env.platform.fixtures.operator();
    await env.platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    await env.platform.fixtures.membership(tenantID, member.operatorID, 'member');
    ownerToken = await env.platform.tokenFor(owner.operatorID);
  });
  afterAll(() => env.close());

  it('mails a single-use token; signing up with it makes the operator a member of the tenant, without a code', async () => {
    const address = freshAddress();
    const response = await invite(tenantID, { operatorEmail: ` ${address.toUpperCase()} ` });
    expect(response.response.status).toBe(201);
    expect(response.data!).toEqual({ data: { invitationID: expect.any(String), tenantID, operatorEmail: address, expiresAt: expect.any(String) } });
    const expiresIn = Date.parse(response.data!.data.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(167 * 3_600_000);
    expect(expiresIn).toBeLessThanOrEqual(168 * 3_600_000);

    const mail = await env.smtp.nextMailTo(address);
    expect(mail.subject).toBe('Convite para a equipe Acme Atendimento');
    expect(mail.text).toContain('Olivia convidou você');
    const token = tokenOf(mail);
    expect(mail.html).toContain(token);

    const created = await signUp(env.platform, { operatorEmail: address, operatorFirstname: 'Nova', password: PASSWORD, invitationToken: token });
    expect(created.response.status).toBe(201);
    expect(created.data!.data.operatorEmail).toBe(address);
    const tenants = await env.platform.api.core.GET('/tenants', { headers: { authorization: `Bearer ${created.data!.data.token}` } });
    expect(tenants.data!).toEqual({ data: [{ tenantID, tenantName: 'Acme Atendimento', role: 'member' }] });
  });

  it('writes the invitation in English when asked to', async () => {
    const address = freshAddress();
    await invite(tenantID, { operatorEmail: address }, ownerToken, { 'accept-language': 'en-US' });
    expect((await env.smtp.nextMailTo(address)).subject).toBe('Invitation to join Acme Atendimento');
  });

  it('refuses a used token', async () => {
    const address = freshAddress();
    const token = await invitedToken(address);
    const body = { operatorEmail: address, operatorFirstname: 'Nova', password: PASSWORD, invitationToken: token };
    expect((await signUp(env.platform, body)).response.status).toBe(201);
    const again = await signUp(env.platform, { ...body, operatorEmail: address });
    expect(again.response.status).toBe(400);
    expect(again.error).toEqual(INVALID_TOKEN_BODY);
  });

  it('refuses an expired token', async () => {
    const address = freshAddress();
    const token = await invitedToken(address);
    env.advanceClock(168 * 3_600_000 + 1);
    const response = await signUp(env.platform, { operatorEmail: address, operatorFirstname: 'Nova', password: PASSWORD, invitationToken: token });
    expect(response.error).toEqual(INVALID_TOKEN_BODY);
  });

  it('refuses a token for another address, and an unknown token', async () => {
    const token = await invitedToken(freshAddress());
    const other = await signUp(env.platform, { operatorEmail: freshAddress(), operatorFirstname: 'Nova', password: PASSWORD, invitationToken: token });
    expect(other.error).toEqual(INVALID_TOKEN_BODY);
    const unknown = await signUp(env.platform, { operatorEmail: freshAddress(), operatorFirstname: 'Nova', password: PASSWORD, invitationToken: 'not-a-token' });
    expect(unknown.error).toEqual(INVALID_TOKEN_BODY);
  });

  it('refuses an invitation for an address that already has an account, as an invalid token', async () => {
    const existing = await env.platform.fixtures.operator({ email: freshAddress() });
    const token = await invitedToken(existing.email);
    const response = await signUp(env.platform, { operatorEmail: existing.email, operatorFirstname: 'Nova', password: PASSWORD, invitationToken: token });
    expect(response.error).toEqual(INVALID_TOKEN_BODY);
  });

  describe('POST /v1/operators/invitations/acceptance (an invitee who already has an account)', () => {
    const accept = (token: string | null, invitationToken: unknown) =>
      env.platform.api.services.POST('/v1/operators/invitations/acceptance', {
        body: { invitationToken } as never,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
    const isMember = async (operatorID: string) =>
      (await env.platform.dataSource.query('SELECT role FROM memberships WHERE tenant_id = $1 AND operator_id = $2', [tenantID, operatorID]))[0]?.role;

    it('makes the signed-in invitee a member of the inviting tenant, once', async () => {
      const invitee = await env.platform.fixtures.operator({ email: freshAddress() });
      const invitationToken = await invitedToken(invitee.email);
      const operatorToken = await env.platform.tokenFor(invitee.operatorID);

      const accepted = await accept(operatorToken, invitationToken);
      expect({ status: accepted.response.status, body: accepted.data }).toMatchObject({ status: 200, body: { data: { tenantID, role: 'member' } } });
      expect(await isMember(invitee.operatorID)).toBe('member');

      const again = await accept(operatorToken, invitationToken);
      expect(again.response.status).toBe(400);
      expect(again.error).toEqual(INVALID_TOKEN_BODY);
    });

    it('refuses an invitation for another address, and an unknown token, with the same 400', async () => {
      const invitee = await env.platform.fixtures.operator({ email: freshAddress() });
      const someoneElse = await env.platform.fixtures.operator({ email: freshAddress() });
      const invitationToken = await invitedToken(invitee.email);
      const wrongOperator = await accept(await env.platform.tokenFor(someoneElse.operatorID), invitationToken);
      expect(wrongOperator.error).toEqual(INVALID_TOKEN_BODY);
      expect(await isMember(someoneElse.operatorID)).toBeUndefined();
      const unknown = await accept(await env.platform.tokenFor(invitee.operatorID), 'no-such-token');
      expect(unknown.error).toEqual(INVALID_TOKEN_BODY);
    });

    it('needs an operator token (401 1003) and a token in the body (400 1002)', async () => {
      expect(singleError((await accept(null, 'x')).error).error_code).toBe(1003);
      const invitee = await env.platform.fixtures.operator({ email: freshAddress() });
      const missing = await accept(await env.platform.tokenFor(invitee.operatorID), undefined);
      expect(singleError(missing.error).fields).toEqual([{ field: 'invitationToken', allowed: 'string of 1-200 characters' }]);
    });
  });

  describeStandardRefusals({
    method: 'POST',
    path: '/v1/tenants/{tenantID}/operators/invitations',
    client: () => env.platform.api.services,
    tenantID: () => tenantID,
    body: () => ({ operatorEmail: freshAddress() }),
    valid: () => `Bearer ${ownerToken}`,
    outsider: async () => {
      const outsider = await env.platform.fixtures.operator();
      await env.platform.fixtures.membership(await env.platform.fixtures.tenant(), outsider.operatorID, 'owner');
      return `Bearer ${await env.platform.tokenFor(outsider.operatorID)}`;
    },
    wrongRole: async () => `Bearer ${await env.platform.tokenFor(member.operatorID)}`,
  });

  describe('who may invite', () => {
    it('answers 400 1002 naming each field of a bad body', async () => {
      const badBody = await invite(tenantID, { operatorEmail: 'nope', role: 'owner' });
      expect(singleError(badBody.error).fields).toEqual([
        { field: 'role', received: 'owner', allowed: 'no such field' },
        {
          field: 'operatorEmail',
          received: 'nope',
          allowed: 'e-mail address (no leading dot, no consecutive dots, domain with a dot and an alphabetic top-level part of 2+ letters)',
        },
      ]);
    });

    it('refuses a disposable address: 422 1847', async () => {
      const response = await invite(tenantID, { operatorEmail: 'someone@mailinator.com' });
      expect(response.response.status).toBe(422);
      expect(singleError(response.error).error_code).toBe(1847);
    });
  });
});
