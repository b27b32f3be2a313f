import { singleError, WebhookEventFixtures } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStandardRefusals } from '../support/standard-refusals';
import { auditRecordsOf, roleOf, startTeamPlatform, TeamPlatform, teamApi } from './team-platform';

const UNKNOWN_INVITATION = '11111111-1111-4111-8111-111111111111';
const DAY = 86_400_000;

describe('pending invitations: GET /v1/tenants/{tenantID}/operators/invitations, DELETE .../invitations/{invitationID}', () => {
  let env: TeamPlatform;
  let owner: string;
  let member: string;
  let outsider: string;
  let counter = 0;
  const address = () => `invitee-${Date.now()}-${(counter += 1)}@acme-atendimento.com.br`;

  const accept = (bearer: string, invitationToken: string) =>
    env.platform.api.services.POST('/v1/operators/invitations/acceptance', { body: { invitationToken }, headers: { authorization: bearer } });

  let webhooks: WebhookEventFixtures;

  beforeAll(async () => {
    env = await startTeamPlatform();
    webhooks = new WebhookEventFixtures(env.platform.dataSource);
    [owner, member, outsider] = await Promise.all([env.bearer(env.owner), env.bearer(env.member), env.bearer(env.outsider)]);
  });
  afterAll(() => env.platform.close());

  it('lists only invitations neither accepted, expired nor revoked, newest first, paged', async () => {
    const { fixtures } = env.platform;
    const tenantID = await fixtures.tenant();
    await fixtures.membership(tenantID, env.owner.operatorID, 'owner');
    const someone = await fixtures.operator();
    await fixtures.invitation(tenantID, address(), { acceptedBy: someone.operatorID });
    await fixtures.invitation(tenantID, address(), { expiresAt: new Date(Date.now() - 1) });
    const pending = [];
    for (let i = 0; i < 3; i += 1) pending.push(await fixtures.invitation(tenantID, address(), { invitedBy: env.owner.operatorID }));
    const api = teamApi(env.platform, tenantID, owner);

    const all = await api.invitations();
    expect(all.response.status).toBe(200);
    expect(all.data!.meta).toEqual({ count: 3, currentPage: 1, hasMore: false, perPage: 20, totalCount: 3, totalPages: 1 });
    expect(all.data!.data.map((invitation) => invitation.invitationID)).toEqual(pending.map((invitation) => invitation.invitationID).reverse());
    expect(all.data!.data[0]).toEqual({
      invitationID: pending[2].invitationID,
      tenantID,
      operatorEmail: expect.stringMatching(/^invitee-/),
      invitedBy: env.owner.operatorID,
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(Date.parse(all.data!.data[0].expiresAt)).toBeGreaterThan(Date.now() + DAY - 60_000);

    const first = await api.invitations({ perPage: 2 });
    expect(first.response.status).toBe(206);
    expect(first.data!.meta.hasMore).toBe(true);
    const second = await api.invitations({ perPage: 2, page: 2 });
    expect(second.response.status).toBe(200);
    expect([...first.data!.data, ...second.data!.data].map((invitation) => invitation.invitationID)).toEqual(all.data!.data.map((invitation) => invitation.invitationID));

    // Revoked: gone from the list.
    expect((await api.revoke(pending[0].invitationID)).response.status).toBe(200);
    expect((await api.invitations()).data!.meta.totalCount).toBe(2);
  });

  it('revokes an invitation: recorded once in the audit log, and its token no longer joins (400 1002, as an unknown token)', async () => {
    const invitee = await env.platform.fixtures.operator({ email: address() });
    const { invitationID, token } = await env.platform.fixtures.invitation(env.tenantID, invitee.email, { invitedBy: env.owner.operatorID });

    const revoked = await teamApi(env.platform, env.tenantID, owner).revoke(invitationID.toUpperCase());
    expect(revoked.response.status).toBe(200);
    expect(revoked.data!).toEqual({ data: { invitationID, tenantID: env.tenantID, revoked: true } });
    expect(await auditRecordsOf(env.platform, env.tenantID, 'invitation.revoked')).toEqual([[invitationID, env.owner.operatorID, { reason: 'revoked by an owner' }]]);

    const refused = await accept(`Bearer ${await env.platform.tokenFor(invitee.operatorID)}`, token);
    expect(refused.response.status).toBe(400);
    expect(singleError(refused.error)).toMatchObject({ error_code: 1002, fields: [{ field: 'invitationToken' }] });
    expect(await roleOf(env.platform, env.tenantID, invitee.operatorID)).toBeUndefined();
    expect(await webhooks.eventsOf(env.tenantID, 'invitation.accepted')).toEqual([]);

    const again = await teamApi(env.platform, env.tenantID, owner).revoke(invitationID);
    expect(again.response.status).toBe(404);
    expect(singleError(again.error)).toEqual({
      statusCode: 404,
      error: 'InvitationNotFoundError',
      error_code: 1992,
      message: 'This tenant has no such pending invitation.',
    });
  });

  it('accepting an invitation leaves one invitation.accepted webhook event; an accepted invitation cannot be revoked', async () => {
    const tenantID = await env.platform.fixtures.tenant();
    await env.platform.fixtures.membership(tenantID, env.owner.operatorID, 'owner');
    const invitee = await env.platform.fixtures.operator({ email: address() });
    const { invitationID, token } = await env.platform.fixtures.invitation(tenantID, invitee.email);
    const bearer = `Bearer ${await env.platform.tokenFor(invitee.operatorID)}`;

    expect((await accept(bearer, token)).response.status).toBe(200);
    expect((await accept(bearer, token)).response.status).toBe(400);
    expect(await webhooks.eventsOf(tenantID)).toEqual([
      {
        type: 'invitation.accepted',
        version: 1,
        orderingKey: `member:${invitee.operatorID}`,
        data: { invitationID, operatorID: invitee.operatorID, role: 'member' },
        emittedBy: 'core-tenants',
      },
    ]);
    const late = await teamApi(env.platform, tenantID, owner).revoke(invitationID);
    expect([late.response.status, singleError(late.error).error_code]).toEqual([404, 1992]);
  });

  it("does not revoke another tenant's invitation (404 1992), and leaves it usable", async () => {
    const otherTenant = await env.platform.fixtures.tenant();
    const { invitationID } = await env.platform.fixtures.invitation(otherTenant, address());
    const refused = await teamApi(env.platform, env.tenantID, owner).revoke(invitationID);
    expect([refused.response.status, singleError(refused.error).error_code]).toEqual([404, 1992]);
    const rows: unknown[] = await env.platform.dataSource.query('SELECT 1 FROM operator_invitations WHERE id = $1', [invitationID]);
    expect(rows).toHaveLength(1);
  });

  it('refuses an unknown invitation (404 1992), bad ids and pages (400), and revokes nothing', async () => {
    const { invitationID } = await env.platform.fixtures.invitation(env.tenantID, address());
    const unknown = await teamApi(env.platform, env.tenantID, owner).revoke(UNKNOWN_INVITATION);
    expect([unknown.response.status, singleError(unknown.error).error_code]).toEqual([404, 1992]);
    const badID = await teamApi(env.platform, env.tenantID, owner).revoke('nope');
    expect([badID.response.status, singleError(badID.error).error_code]).toEqual([400, 1002]);
    const badPage = await teamApi(env.platform, env.tenantID, owner).invitations({ perPage: 201 });
    expect([badPage.response.status, singleError(badPage.error).error_code]).toEqual([400, 1002]);
    const rows: unknown[] = await env.platform.dataSource.query('SELECT 1 FROM operator_invitations WHERE id = $1', [invitationID]);
    expect(rows).toHaveLength(1);
  });

  /** The invitation every refused revocation aims at: none may touch it. */
  let refusedTarget: Promise<{ invitationID: string }> | undefined;
  const target = () => (refusedTarget ??= env.platform.fixtures.invitation(env.tenantID, address()));
  /** The tenant's invitations as stored, the target made first: a refusal revokes none. */
  const storedInvitations = async (): Promise<unknown[]> => {
    await target();
    return env.platform.dataSource.query('SELECT * FROM operator_invitations WHERE tenant_id = $1 ORDER BY id', [env.tenantID]);
  };

  describeStandardRefusals({
    method: 'GET',
    path: '/v1/tenants/{tenantID}/operators/invitations',
    client: () => env.platform.api.services,
    tenantID: () => env.tenantID,
    valid: () => owner,
    outsider: () => outsider,
    wrongRole: () => member,
  });
  describeStandardRefusals({
    method: 'DELETE',
    path: '/v1/tenants/{tenantID}/operators/invitations/{invitationID}',
    client: () => env.platform.api.services,
    tenantID: () => env.tenantID,
    pathParams: async () => ({ invitationID: (await target()).invitationID }),
    valid: () => owner,
    outsider: () => outsider,
    wrongRole: () => member,
    written: storedInvitations,
  });
});
