import { describe, expect, it } from 'vitest';
import { fake } from '@platform/testing';
import { IssueOperatorTokenUseCase } from './issue-operator-token.use-case';
import type { OperatorTokenSigner } from './operator-token.signer';
import type { TokenSubjectsRepository } from './token-subjects.repository';

const anaID = 'a1b2c3d4-0000-4000-8000-0000000000aa';

function useCase(operators: string[]) {
  const issuedFor: string[] = [];
  const subjects = fake<TokenSubjectsRepository>({ operatorExists: async (operatorID: string) => operators.includes(operatorID) });
  const signer = fake<OperatorTokenSigner>({
    issue: async (operatorID: string) => {
      issuedFor.push(operatorID);
      return { token: `token-of-${operatorID}`, expiresInSeconds: 3600 };
    },
  });
  return { issuedFor, issue: new IssueOperatorTokenUseCase(subjects, signer) };
}

describe('IssueOperatorTokenUseCase', () => {
  it('issues a token for an existing operator, its id lower-cased', async () => {
    const { issue, issuedFor } = useCase([anaID]);
    expect(await issue.execute({ operatorID: anaID.toUpperCase() })).toEqual({ token: `token-of-${anaID}`, expiresInSeconds: 3600 });
    expect(issuedFor).toEqual([anaID]);
  });

  it('answers 1003 for an unknown operator and issues nothing', async () => {
    const { issue, issuedFor } = useCase([]);
    await expect(issue.execute({ operatorID: anaID })).rejects.toMatchObject({ key: 'Unauthorized' });
    expect(issuedFor).toEqual([]);
  });
});
