import type { Clock } from '@platform/scheduling';
import { describe, expect, it } from 'vitest';
import { fake } from '@platform/testing';
import { CheckInvitationUseCase } from './check-invitation.use-case';
import type { InvitationRow, OperatorsRepository } from './operators.repository';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const TOKEN_HASH = 'd'.repeat(64);

describe('CheckInvitationUseCase', () => {
  const invitation: InvitationRow = { id: 'inv-1', tenantID: 't', email: 'ana@acme.com.br', expiresAt: new Date(NOW + 1), acceptedAt: null };
  const repository = fake<OperatorsRepository>({ invitationByTokenHash: async (hash: string) => (hash === TOKEN_HASH ? invitation : undefined) });
  let now = NOW;
  const clock: Clock = { now: () => new Date(now) };
  const useCase = new CheckInvitationUseCase(repository, clock);

  it('answers usable only for an unused, unexpired invitation of that address', async () => {
    expect(await useCase.execute({ tokenHash: TOKEN_HASH, email: 'ana@acme.com.br' })).toEqual({ usable: true });
    expect(await useCase.execute({ tokenHash: TOKEN_HASH, email: 'bia@acme.com.br' })).toEqual({ usable: false });
    expect(await useCase.execute({ tokenHash: 'e'.repeat(64), email: 'ana@acme.com.br' })).toEqual({ usable: false });
    now = NOW + 1;
    expect(await useCase.execute({ tokenHash: TOKEN_HASH, email: 'ana@acme.com.br' })).toEqual({ usable: false });
  });
});
