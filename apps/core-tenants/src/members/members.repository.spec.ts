import { trustedTenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import { createTestDataSource, FixtureBuilder, OperatorFixture } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MembersRepository } from './members.repository';

/**
 * Memberships' SQL against PostgreSQL: the member as the API shows it (the
 * operator's name and address, the role, when they joined), the owner count,
 * role changes and removals, the tenant's lock, and the list by role in
 * order and pages, each in its tenant only.
 */
describe('MembersRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let members: MembersRepository;
  let fixtures: FixtureBuilder;
  let tenantID: string;
  let otherTenantID: string;
  let owner: OperatorFixture;
  let member: OperatorFixture;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    members = new MembersRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
    otherTenantID = await fixtures.tenant();
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    tenantID = await fixtures.tenant();
    owner = await fixtures.operator({ firstname: 'Ana' });
    member = await fixtures.operator({ firstname: 'Bia' });
    await fixtures.membership(tenantID, owner.operatorID, 'owner');
    await fixtures.membership(tenantID, member.operatorID, 'member');
    await fixtures.membership(otherTenantID, member.operatorID, 'owner');
  });

  const scope = (tenant = tenantID) => trustedTenantScope(tenant);
  const change = <T>(work: (runner: SqlRunner) => Promise<T>) => members.transaction(work);

  it('shows a member with their name, address, role and when they joined, in the tenant only', async () => {
    expect(await change((runner) => members.member(runner, scope(), owner.operatorID))).toEqual({
      operatorID: owner.operatorID,
      operatorEmail: owner.email,
      operatorFirstname: 'Ana',
      operatorLastname: null,
      role: 'owner',
      joinedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(await change((runner) => members.member(runner, scope(otherTenantID), owner.operatorID))).toBeUndefined();
    expect(await change((runner) => members.member(runner, scope(otherTenantID), member.operatorID))).toMatchObject({ role: 'owner' });
  });

  it("locks a tenant that exists only, and changes and removes memberships of the tenant's only", async () => {
    expect(await change((runner) => members.lockTenant(runner, scope()))).toBe(true);
    expect(await change((runner) => members.lockTenant(runner, scope(randomUUID())))).toBe(false);

    expect(await change((runner) => members.ownerCount(runner, scope()))).toBe(1);
    await change((runner) => members.setRole(runner, scope(), member.operatorID, 'owner'));
    expect(await change((runner) => members.ownerCount(runner, scope()))).toBe(2);
    await change((runner) => members.setRole(runner, scope(), owner.operatorID, 'member'));
    expect(await change((runner) => members.ownerCount(runner, scope()))).toBe(1);

    await change((runner) => members.remove(runner, scope(), member.operatorID));
    expect(await change((runner) => members.member(runner, scope(), member.operatorID))).toBeUndefined();
    expect(await change((runner) => members.member(runner, scope(otherTenantID), member.operatorID))).toMatchObject({ role: 'owner' });
    expect(await change((runner) => members.ownerCount(runner, scope()))).toBe(0);
  });

  it('lists members oldest first, the operator id ordering one instant, by role or all, in pages with their count', async () => {
    const third = await fixtures.operator();
    const fourth = await fixtures.operator();
    await fixtures.membership(tenantID, third.operatorID, 'member');
    await fixtures.membership(tenantID, fourth.operatorID, 'member');
    await dataSource.query(`UPDATE memberships SET created_at = '2026-03-01T12:00:00Z' WHERE tenant_id = $1 AND operator_id = $2`, [tenantID, owner.operatorID]);
    await dataSource.query(`UPDATE memberships SET created_at = '2026-03-02T12:00:00Z' WHERE tenant_id = $1 AND operator_id <> $2`, [tenantID, owner.operatorID]);
    const tied = [member.operatorID, third.operatorID, fourth.operatorID].sort();
    const ids = async (role: 'owner' | 'member' | undefined, limit: number, offset: number) => (await members.page(scope(), role, limit, offset)).map((found) => found.operatorID);

    expect(await ids(undefined, 10, 0)).toEqual([owner.operatorID, ...tied]);
    expect(await ids(undefined, 2, 1)).toEqual(tied.slice(0, 2));
    expect(await ids('member', 10, 0)).toEqual(tied);
    expect(await ids('owner', 10, 0)).toEqual([owner.operatorID]);
    expect(await ids('member', 10, 3)).toEqual([]);
    expect([await members.count(scope(), undefined), await members.count(scope(), 'member'), await members.count(scope(), 'owner')]).toEqual([4, 3, 1]);
    expect(await members.count(scope(otherTenantID), 'member')).toBe(0);
  });
});
