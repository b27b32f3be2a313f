import type { Clock } from '@platform/scheduling';
import { fake, RecordingAuditTrail, RecordingWebhookEvents, transactionOn } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import type { InvitationRow, NewOperator, OperatorsRepository } from './operators.repository';
import { RegisterOperatorUseCase } from './register-operator.use-case';
import { NOT_A_TRANSPORT_REQUEST } from '../../test/doubles/handled-transport-requests.fakes';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const TENANT = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const TOKEN_HASH = 'a'.repeat(64);

/** Operators, invitations and memberships as the repository keeps them; a transaction that fails keeps nothing. */
class FakeOperators {
  operators = new Map<string, string>();
  invitations = new Map<string, InvitationRow>();
  memberships: string[] = [];
  audit = new RecordingAuditTrail();
  webhooks = new RecordingWebhookEvents();
  private nextID = 1;

  invite(email: string, overrides: Partial<InvitationRow> = {}): void {
    this.invitations.set(TOKEN_HASH, { id: 'inv-1', tenantID: TENANT, email, expiresAt: new Date(NOW + 1_000), acceptedAt: null, ...overrides });
  }

  asRepository(): OperatorsRepository {
    return fake<OperatorsRepository>({
      create: async (operator: NewOperator) => {
        if (this.operators.has(operator.email)) return undefined;
        const id = `op-${this.nextID++}`;
        this.operators.set(operator.email, id);
        return id;
      },
      transaction: transactionOn(),
      lockInvitationByTokenHash: async (_runner: object, tokenHash: string) => this.invitations.get(tokenHash),
      acceptInvitation: async (_runner: object, invitation: InvitationRow, operatorID: string, now: Date) => {
        this.memberships.push(`${invitation.tenantID}:${operatorID}:member`);
        invitation.acceptedAt = now;
      },
    });
  }
}

const clock: Clock = { now: () => new Date(NOW) };
const operator = (email: string): NewOperator => ({ email, firstname: 'Ana', lastname: null, passwordHash: 'hash' });

describe('RegisterOperatorUseCase', () => {
  it('creates an operator whose address has no account yet', async () => {
    const fake = new FakeOperators();
    const reply = await new RegisterOperatorUseCase(fake.asRepository(), clock, fake.audit.asTrail(), fake.webhooks.asEvents(), NOT_A_TRANSPORT_REQUEST).execute({ operator: operator('ana@acme.com.br') });
    expect(reply).toEqual({ outcome: 'registered', operatorID: 'op-1' });
  });

  it('tells services-api an address already has an account, and writes nothing', async () => {
    const fake = new FakeOperators();
    fake.operators.set('ana@acme.com.br', 'existing');
    expect(await new RegisterOperatorUseCase(fake.asRepository(), clock, fake.audit.asTrail(), fake.webhooks.asEvents(), NOT_A_TRANSPORT_REQUEST).execute({ operator: operator('ana@acme.com.br') })).toEqual({
      outcome: 'email-taken',
    });
    expect([...fake.operators.values()]).toEqual(['existing']);
  });

  it('with a usable invitation, creates the operator as a member and uses the invitation up', async () => {
    const fake = new FakeOperators();
    fake.invite('ana@acme.com.br');
    const useCase = new RegisterOperatorUseCase(fake.asRepository(), clock, fake.audit.asTrail(), fake.webhooks.asEvents(), NOT_A_TRANSPORT_REQUEST);
    const reply = await useCase.execute({ operator: operator('ana@acme.com.br'), invitationTokenHash: TOKEN_HASH });
    expect(reply).toEqual({ outcome: 'registered', operatorID: 'op-1' });
    expect(fake.memberships).toEqual([`${TENANT}:op-1:member`]);
    // Signing up is not authenticated: the new operator is named as who accepted.
    expect(fake.audit.records.map(({ record, actor }) => [record.action, actor])).toEqual([['invitation.accepted', 'operator:op-1']]);
    expect(fake.webhooks.events.map(({ tenantID, event }) => [tenantID, event.type, event.subject])).toEqual([[TENANT, 'invitation.accepted', 'member:op-1']]);
    expect(fake.invitations.get(TOKEN_HASH)!.acceptedAt).toEqual(new Date(NOW));
  });

  it.each([
    ['unknown', (fake: FakeOperators) => fake.invitations.clear()],
    ['used', (fake: FakeOperators) => (fake.invitations.get(TOKEN_HASH)!.acceptedAt = new Date(NOW - 1))],
    ['expired', (fake: FakeOperators) => (fake.invitations.get(TOKEN_HASH)!.expiresAt = new Date(NOW))],
    ['for another address', (fake: FakeOperators) => (fake.invitations.get(TOKEN_HASH)!.email = 'bia@acme.com.br')],
    ['for an address that already has an account', (fake: FakeOperators) => fake.operators.set('ana@acme.com.br', 'existing')],
  ])('refuses an invitation that is %s, and writes nothing', async (_case, arrange) => {
    const fake = new FakeOperators();
    fake.invite('ana@acme.com.br');
    arrange(fake);
    const before = fake.invitations.get(TOKEN_HASH)?.acceptedAt;
    const reply = await new RegisterOperatorUseCase(fake.asRepository(), clock, fake.audit.asTrail(), fake.webhooks.asEvents(), NOT_A_TRANSPORT_REQUEST).execute({ operator: operator('ana@acme.com.br'), invitationTokenHash: TOKEN_HASH });
    expect(reply).toEqual({ outcome: 'invitation-unusable' });
    expect(fake.memberships).toEqual([]);
    expect(fake.audit.records).toEqual([]);
    expect(fake.webhooks.events).toEqual([]);
    expect(fake.invitations.get(TOKEN_HASH)?.acceptedAt).toEqual(before);
  });
});
