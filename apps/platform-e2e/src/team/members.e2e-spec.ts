import { OperatorFixture, singleError, WebhookEventFixtures } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStandardRefusals } from '../support/standard-refusals';
import { auditRecordsOf, roleOf, startTeamPlatform, TeamPlatform, teamApi } from './team-platform';

describe('team members: GET, PATCH and DELETE /v1/tenants/{tenantID}/operators', () => {
  let env: TeamPlatform;
  let owner: string;
  let member: string;
  let outsider: string;

  /** A tenant of its own for a test that changes memberships: `owners` owners then `members` members. */
  async function team(owners: number, members = 0): Promise<{ tenantID: string; owners: OperatorFixture[]; members: OperatorFixture[] }> {
    const { fixtures } = env.platform;
    const tenantID = await fixtures.tenant();
    const made = { tenantID, owners: [] as OperatorFixture[], members: [] as OperatorFixture[] };
    for (let i = 0; i < owners + members; i += 1) {
      const operator = await fixtures.operator();
      await fixtures.membership(tenantID, operator.operatorID, i < owners ? 'owner' : 'member');
      (i < owners ? made.owners : made.members).push(operator);
    }
    return made;
  }

  let webhooks: WebhookEventFixtures;
  /** The tenant's roles and webhook events: a refused change or removal leaves both as they were. */
  const teamAsStored = async () => ({
    owner: await roleOf(env.platform, env.tenantID, env.owner.operatorID),
    member: await roleOf(env.platform, env.tenantID, env.member.operatorID),
    events: await webhooks.eventsOf(env.tenantID),
  });

  beforeAll(async () => {
    env = await startTeamPlatform();
    webhooks = new WebhookEventFixtures(env.platform.dataSource);
    [owner, member, outsider] = await Promise.all([env.bearer(env.owner), env.bearer(env.member), env.bearer(env.outsider)]);
  });
  afterAll(() => env.platform.close());

  describe('GET /v1/tenants/{tenantID}/operators', () => {
    it('lists members and owners with role, name, address and joinedAt, oldest first, to a member', async () => {
      const response = await teamApi(env.platform, env.tenantID, member).list();
      expect(response.response.status).toBe(200);
      expect(response.data!).toEqual({
        data: [
          {
            operatorID: env.owner.operatorID,
            tenantID: env.tenantID,
            operatorEmail: env.owner.email,
            operatorFirstname: 'Olivia',
            operatorLastname: null,
            role: 'owner',
            joinedAt: expect.any(String),
          },
          {
            operatorID: env.member.operatorID,
            tenantID: env.tenantID,
            operatorEmail: env.member.email,
            operatorFirstname: 'Mateus',
            operatorLastname: null,
            role: 'member',
            joinedAt: expect.any(String),
          },
        ],
        meta: { count: 2, currentPage: 1, hasMore: false, perPage: 20, totalCount: 2, totalPages: 1 },
      });
    });

    it('filters by role', async () => {
      const owners = await teamApi(env.platform, env.tenantID, owner).list({ role: 'owner' });
      expect(owners.data!.data.map((entry) => entry.operatorID)).toEqual([env.owner.operatorID]);
      const members = await teamApi(env.platform, env.tenantID, owner).list({ role: 'member' });
      expect(members.data!.data.map((entry) => entry.operatorID)).toEqual([env.member.operatorID]);
      const bad = await teamApi(env.platform, env.tenantID, owner).list({ role: 'admin' });
      expect(bad.response.status).toBe(400);
      expect(singleError(bad.error)).toMatchObject({ error_code: 1002, fields: [{ field: 'role', received: 'admin', allowed: 'one of: owner, member' }] });
    });

    it('pages: 206 while more pages exist, then 200, and an empty page past the end', async () => {
      const big = await team(1, 4);
      const bearer = await env.bearer(big.owners[0]);
      const everyone = [...big.owners, ...big.members].map((operator) => operator.operatorID);
      const first = await teamApi(env.platform, big.tenantID, bearer).list({ perPage: 2 });
      expect(first.response.status).toBe(206);
      expect(first.data!.meta).toEqual({ count: 2, currentPage: 1, hasMore: true, perPage: 2, totalCount: 5, totalPages: 3 });
      const second = await teamApi(env.platform, big.tenantID, bearer).list({ perPage: 2, page: 2 });
      const third = await teamApi(env.platform, big.tenantID, bearer).list({ perPage: 2, page: 3 });
      expect(third.response.status).toBe(200);
      expect([...first.data!.data, ...second.data!.data, ...third.data!.data].map((entry) => entry.operatorID)).toEqual(everyone);
      const past = await teamApi(env.platform, big.tenantID, bearer).list({ perPage: 2, page: 9 });
      expect(past.response.status).toBe(200);
      expect(past.data!).toEqual({ data: [], meta: { count: 0, currentPage: 9, hasMore: false, perPage: 2, totalCount: 5, totalPages: 3 } });
    });

    describeStandardRefusals({
      method: 'GET',
      path: '/v1/tenants/{tenantID}/operators',
      client: () => env.platform.api.services,
      tenantID: () => env.tenantID,
      valid: () => owner,
      outsider: () => outsider,
    });
  });

  describe('PATCH /v1/tenants/{tenantID}/operators/{operatorID}', () => {
    it("changes a member's role, answers the member, and records it once in the audit log and the webhook outbox", async () => {
      const { tenantID, owners, members } = await team(1, 1);
      const [boss] = owners;
      const [staff] = members;
      const api = teamApi(env.platform, tenantID, await env.bearer(boss));

      const promoted = await api.changeRole(staff.operatorID.toUpperCase(), 'owner');
      expect(promoted.response.status).toBe(200);
      expect(promoted.data!.data).toMatchObject({ operatorID: staff.operatorID, tenantID, operatorEmail: staff.email, role: 'owner' });
      expect(await roleOf(env.platform, tenantID, staff.operatorID)).toBe('owner');
      // The promoted owner's very next request sees the new role.
      expect((await teamApi(env.platform, tenantID, await env.bearer(staff)).invitations()).response.status).toBe(200);

      // Giving the role they have changes and records nothing.
      expect((await api.changeRole(staff.operatorID, 'owner')).response.status).toBe(200);

      expect(await auditRecordsOf(env.platform, tenantID, 'member.roleChanged')).toEqual([[staff.operatorID, boss.operatorID, { previousRole: 'member', role: 'owner' }]]);
      expect(await webhooks.eventsOf(tenantID, 'member.roleChanged')).toEqual([
        {
          type: 'member.roleChanged',
          version: 1,
          orderingKey: `member:${staff.operatorID}`,
          data: { operatorID: staff.operatorID, previousRole: 'member', role: 'owner' },
          emittedBy: 'core-tenants',
        },
      ]);
    });

    it('refuses to demote the last owner (409 1991), writing nothing; with a second owner it succeeds', async () => {
      const { tenantID, owners } = await team(1, 1);
      const api = teamApi(env.platform, tenantID, await env.bearer(owners[0]));
      const refused = await api.changeRole(owners[0].operatorID, 'member');
      expect(refused.response.status).toBe(409);
      expect(singleError(refused.error)).toEqual({
        statusCode: 409,
        error: 'LastOwnerError',
        error_code: 1991,
        message: 'A tenant keeps at least one owner. Make another member an owner first.',
      });
      expect(await roleOf(env.platform, tenantID, owners[0].operatorID)).toBe('owner');
      expect(await auditRecordsOf(env.platform, tenantID, 'member.roleChanged')).toEqual([]);
      expect(await webhooks.eventsOf(tenantID)).toEqual([]);
    });

    it('keeps one owner when two owners demote each other at the same moment: exactly one succeeds', async () => {
      for (let round = 0; round < 3; round += 1) {
        const { tenantID, owners } = await team(2);
        const [a, b] = owners;
        const results = await Promise.all([
          teamApi(env.platform, tenantID, await env.bearer(a)).changeRole(b.operatorID, 'member'),
          teamApi(env.platform, tenantID, await env.bearer(b)).changeRole(a.operatorID, 'member'),
        ]);
        const statuses = results.map((result) => result.response.status).sort();
        // The loser finds either that it was demoted itself (403 1004) or that the other is now the last owner.
        expect(statuses[0]).toBe(200);
        expect([403, 409]).toContain(statuses[1]);
        const roles = [await roleOf(env.platform, tenantID, a.operatorID), await roleOf(env.platform, tenantID, b.operatorID)];
        expect(roles.sort()).toEqual(['member', 'owner']);
        expect(await webhooks.eventsOf(tenantID, 'member.roleChanged')).toHaveLength(1);
      }
    });

    it('keeps one owner when two owners each step down at the same moment: one 200, one 409 1991', async () => {
      const { tenantID, owners } = await team(2);
      const results = await Promise.all(owners.map(async (self) => teamApi(env.platform, tenantID, await env.bearer(self)).changeRole(self.operatorID, 'member')));
      expect(results.map((result) => result.response.status).sort()).toEqual([200, 409]);
      expect(singleError(results.find((result) => result.response.status === 409)!.error).error_code).toBe(1991);
      expect(await auditRecordsOf(env.platform, tenantID, 'member.roleChanged')).toHaveLength(1);
    });

    it('refuses a non-member (404 1990), bad ids and roles (400), and changes nothing', async () => {
      const notMember = await teamApi(env.platform, env.tenantID, owner).changeRole(env.outsider.operatorID, 'owner');
      expect(notMember.response.status).toBe(404);
      expect(singleError(notMember.error)).toEqual({
        statusCode: 404,
        error: 'MemberNotFoundError',
        error_code: 1990,
        message: 'This operator is not a member of this tenant.',
      });
      const badID = await teamApi(env.platform, env.tenantID, owner).changeRole('42', 'owner');
      expect([badID.response.status, singleError(badID.error).error_code]).toEqual([400, 1002]);
      const badRole = await teamApi(env.platform, env.tenantID, owner).changeRole(env.member.operatorID, 'admin');
      expect([badRole.response.status, singleError(badRole.error).error_code]).toEqual([400, 1002]);
      expect(await roleOf(env.platform, env.tenantID, env.member.operatorID)).toBe('member');
      expect(await webhooks.eventsOf(env.tenantID)).toEqual([]);
    });

    describeStandardRefusals({
      method: 'PATCH',
      path: '/v1/tenants/{tenantID}/operators/{operatorID}',
      client: () => env.platform.api.services,
      tenantID: () => env.tenantID,
      pathParams: () => ({ operatorID: env.member.operatorID }),
      body: () => ({ role: 'owner' }),
      valid: () => owner,
      outsider: () => outsider,
      wrongRole: () => member,
      written: teamAsStored,
    });
  });

  describe('DELETE /v1/tenants/{tenantID}/operators/{operatorID}', () => {
    it('removes a member, whose next request is refused, recorded once in the audit log and the webhook outbox', async () => {
      const { tenantID, owners, members } = await team(1, 1);
      const [boss] = owners;
      const [staff] = members;
      const staffApi = teamApi(env.platform, tenantID, await env.bearer(staff));
      expect((await staffApi.list()).response.status).toBe(200);

      const removed = await teamApi(env.platform, tenantID, await env.bearer(boss)).remove(staff.operatorID);
      expect(removed.response.status).toBe(200);
      expect(removed.data!).toEqual({ data: { operatorID: staff.operatorID, tenantID, removed: true } });
      expect(await roleOf(env.platform, tenantID, staff.operatorID)).toBeUndefined();
      const after = await staffApi.list();
      expect([after.response.status, singleError(after.error).error_code]).toEqual([403, 1004]);

      expect(await auditRecordsOf(env.platform, tenantID, 'member.removed')).toEqual([[staff.operatorID, boss.operatorID, { role: 'member' }]]);
      expect(await webhooks.eventsOf(tenantID, 'member.removed')).toEqual([
        { type: 'member.removed', version: 1, orderingKey: `member:${staff.operatorID}`, data: { operatorID: staff.operatorID, role: 'member' }, emittedBy: 'core-tenants' },
      ]);
      const again = await teamApi(env.platform, tenantID, await env.bearer(boss)).remove(staff.operatorID);
      expect([again.response.status, singleError(again.error).error_code]).toEqual([404, 1990]);
    });

    it('lets an owner remove themself while another owner remains, never the last owner', async () => {
      const { tenantID, owners } = await team(2);
      const [first, second] = owners;
      expect((await teamApi(env.platform, tenantID, await env.bearer(first)).remove(first.operatorID)).response.status).toBe(200);
      const last = await teamApi(env.platform, tenantID, await env.bearer(second)).remove(second.operatorID);
      expect([last.response.status, singleError(last.error).error_code]).toEqual([409, 1991]);
      expect(await roleOf(env.platform, tenantID, second.operatorID)).toBe('owner');
      expect(await webhooks.eventsOf(tenantID, 'member.removed')).toHaveLength(1);
    });

    it('refuses a member removing an owner (403 1004), bad ids (400), and removes nothing', async () => {
      const asMember = await teamApi(env.platform, env.tenantID, member).remove(env.owner.operatorID);
      expect([asMember.response.status, singleError(asMember.error).error_code]).toEqual([403, 1004]);
      const badID = await teamApi(env.platform, env.tenantID, owner).remove('not-an-id');
      expect([badID.response.status, singleError(badID.error).error_code]).toEqual([400, 1002]);
      expect(await roleOf(env.platform, env.tenantID, env.owner.operatorID)).toBe('owner');
      expect(await roleOf(env.platform, env.tenantID, env.member.operatorID)).toBe('member');
      expect(await webhooks.eventsOf(env.tenantID)).toEqual([]);
    });

    // The member as target: a member removing themself is refused too.
    describeStandardRefusals({
      method: 'DELETE',
      path: '/v1/tenants/{tenantID}/operators/{operatorID}',
      client: () => env.platform.api.services,
      tenantID: () => env.tenantID,
      pathParams: () => ({ operatorID: env.member.operatorID }),
      valid: () => owner,
      outsider: () => outsider,
      wrongRole: () => member,
      written: teamAsStored,
    });
  });
});
