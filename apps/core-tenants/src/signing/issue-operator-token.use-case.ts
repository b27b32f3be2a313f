import { Injectable } from '@nestjs/common';
import { AppException } from '@platform/errors';
import { canonicalUuid } from '@platform/http-common';
import { IssuedOperatorToken, OperatorTokenSigner } from './operator-token.signer';
import { TokenSubjectsRepository } from './token-subjects.repository';

export interface IssueOperatorTokenCommand {
  operatorID: string;
}

/**
 * Issues an operator token for another app (services-api's sign-up). Only for
 * operators that exist: an unknown id gets 1003, as an unknown address does
 * at sign-in.
 */
@Injectable()
export class IssueOperatorTokenUseCase {
  constructor(
    private readonly subjects: TokenSubjectsRepository,
    private readonly signer: OperatorTokenSigner,
  ) {}

  async execute(command: IssueOperatorTokenCommand): Promise<IssuedOperatorToken> {
    const operatorID = canonicalUuid(command.operatorID);
    if (!(await this.subjects.operatorExists(operatorID))) throw new AppException('Unauthorized');
    return this.signer.issue(operatorID);
  }
}
