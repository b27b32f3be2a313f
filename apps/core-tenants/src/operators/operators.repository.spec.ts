import { trustedTenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import { createTestDataSource, FixtureBuilder, OperatorFixture } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NewInvitation, OperatorsRepository } from './operators.repository';

/**
 * Operators' and invitations' SQL against PostgreSQL: the account per
 * address (race-free), invitations recorded once per id, found by their
 * token's hash, accepted into a membership, withdrawn (the tenant's only when
 * given, never an accepted one), the pending ones' count and pages newest
 * first at an instant, and the mail's context.
 */
describe('OperatorsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let operators: OperatorsRepository;
  let fixtures: FixtureBuilder;
  let tenantID: string;
  let otherTenantID: string;
  let inviter: OperatorFixture;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(4));
    operators = new OperatorsRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
    otherTenantID = await fixtures.tenant();
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    tenantID = await fixtures.tenant('Acme Suporte');
    inviter = await fixtures.operator({ firstname: 'Ana' });
  });

  const scope = (tenant = tenantID) => trustedTenantScope(tenant);
  const change = <T>(work: (runner: SqlRunner) => Promise<T>) => operators.transaction(work);
  const invitation = (overrides: Partial<NewInvitation> = {}): NewInvitation => ({
    id: randomUUID(),
    tenantID,
    email: `invited-${randomUUID()}@acme.com.br`,
    tokenHash: randomUUID(),
    invitedBy: inviter.operatorID,
    expiresAt: new Date('2026-03-09T12:00:00.000Z'),
    ...overrides,
  });
  const NOW = new Date('2026-03-02T12:00:00.000Z');

  it('creates one account per address, however many sign-ups race, and tells the address of an operator', async () => {
    const email = `maria-${randomUUID()}@acme.com.br`;
    const created = await Promise.all([1, 2, 3].map(() => operators.create({ email, firstname: 'Maria', lastname: null, passwordHash: 'hash' })));

    expect(created.filter((id) => id !== undefined)).toHaveLength(1);
    expect(await operators.existsWithEmail(email)).toBe(true);
    expect(await operators.existsWithEmail(`nobody-${randomUUID()}@acme.com.br`)).toBe(false);
    expect(await operators.emailOf(created.find((id) => id !== undefined)!)).toBe(email);
    expect(await operators.emailOf(randomUUID())).toBeUndefined();
  });

  it('records an invitation once per id, finds it by its token hash as a camelCase row, and accepts it into a membership once', async () => {
    const sent = invitation();
    expect(await operators.createInvitation(sent)).toBe(true);
    expect(await operators.createInvitation({ ...sent, email: 'retry@acme.com.br' })).toBe(false);

    const found = await operators.invitationByTokenHash(sent.tokenHash);
    expect(found).toEqual({ id: sent.id, tenantID, email: sent.email, expiresAt: sent.expiresAt, acceptedAt: null });
    expect(await operators.invitationByTokenHash(randomUUID())).toBeUndefined();

    const joining = await fixtures.operator();
    await change(async (runner) => {
      const locked = await operators.lockInvitationByTokenHash(runner, sent.tokenHash);
      await operators.acceptInvitation(runner, locked!, joining.operatorID, NOW);
      await operators.acceptInvitation(runner, locked!, joining.operatorID, NOW);
    });
    expect(await operators.invitationByTokenHash(sent.tokenHash)).toMatchObject({ acceptedAt: NOW });
    const memberships = (await dataSource.query('SELECT role FROM memberships WHERE tenant_id = $1 AND operator_id = $2', [tenantID, joining.operatorID])) as object[];
    expect(memberships).toEqual([{ role: 'member' }]);
  });

  it('withdraws an invitation never accepted, of the tenant only when told, answering its tenant', async () => {
    const pending = invitation();
    const accepted = invitation();
    await operators.createInvitation(pending);
    await operators.createInvitation(accepted);
    await change(async (runner) => operators.acceptInvitation(runner, (await operators.lockInvitationByTokenHash(runner, accepted.tokenHash))!, inviter.operatorID, NOW));

    expect(await operators.withdrawInvitation(accepted.id)).toBeUndefined();
    expect(await operators.withdrawInvitation(pending.id, undefined, otherTenantID)).toBeUndefined();
    expect(await operators.withdrawInvitation(pending.id, undefined, tenantID)).toBe(tenantID);
    expect(await operators.withdrawInvitation(pending.id)).toBeUndefined();
    const other = invitation({ tenantID: otherTenantID });
    await operators.createInvitation(other);
    expect(await operators.withdrawInvitation(other.id)).toBe(otherTenantID);
  });

  it('counts and lists the pending invitations at an instant, newest first, the id ordering one instant', async () => {
    const sent = [invitation(), invitation(), invitation(), invitation()];
    for (const each of sent) await operators.createInvitation(each);
    const expired = invitation({ expiresAt: NOW });
    await operators.createInvitation(expired);
    await operators.createInvitation(invitation({ tenantID: otherTenantID }));
    await dataSource.query(`UPDATE operator_invitations SET created_at = '2026-03-01T12:00:00Z' WHERE id = $1`, [sent[0].id]);
    await dataSource.query(`UPDATE operator_invitations SET created_at = '2026-03-02T10:00:00Z' WHERE id = ANY($1::uuid[])`, [[sent[1].id, sent[2].id, sent[3].id]]);
    const order = [...[sent[1].id, sent[2].id, sent[3].id].sort().reverse(), sent[0].id];
    const ids = async (limit: number, offset: number) => (await operators.pendingInvitations(scope(), NOW, limit, offset)).map((found) => found.invitationID);

    expect(await operators.pendingInvitationCount(scope(), NOW)).toBe(4);
    expect(await ids(10, 0)).toEqual(order);
    expect(await ids(2, 2)).toEqual(order.slice(2));
    expect(await ids(2, 4)).toEqual([]);
    expect((await operators.pendingInvitations(scope(), NOW, 1, 3))[0]).toEqual({
      invitationID: sent[0].id,
      operatorEmail: sent[0].email,
      invitedBy: inviter.operatorID,
      createdAt: '2026-03-01T12:00:00.000Z',
      expiresAt: '2026-03-09T12:00:00.000Z',
    });
    expect(await operators.pendingInvitationCount(scope(), new Date('2026-03-09T12:00:00.000Z'))).toBe(0);
  });

  it("tells the tenant's name and the inviter's first name for the mail, the name alone for an unknown inviter", async () => {
    expect(await operators.invitationContext(tenantID, inviter.operatorID)).toEqual({ tenantName: 'Acme Suporte', inviterName: 'Ana' });
    expect(await operators.invitationContext(tenantID, randomUUID())).toEqual({ tenantName: 'Acme Suporte', inviterName: null });
    expect(await operators.invitationContext(randomUUID(), inviter.operatorID)).toBeUndefined();
  });
});
