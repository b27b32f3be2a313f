import { describe, expect, it } from 'vitest';
import { fake } from '@platform/testing';
import { CheckOperatorEmailUseCase } from './check-operator-email.use-case';
import type { OperatorsRepository } from './operators.repository';

describe('CheckOperatorEmailUseCase', () => {
  it('answers whether the address has an account', async () => {
    const repository = fake<OperatorsRepository>({ existsWithEmail: async (email: string) => email === 'ana@acme.com.br' });
    const useCase = new CheckOperatorEmailUseCase(repository);
    expect(await useCase.execute({ email: 'ana@acme.com.br' })).toEqual({ hasAccount: true });
    expect(await useCase.execute({ email: 'bia@acme.com.br' })).toEqual({ hasAccount: false });
  });
});
