import { IsUUID } from 'class-validator';
import { defineMessage } from '../message';

/**
 * Asks core-tenants, which alone holds the signing key, for an operator token
 * (the same token sign-in gives), e.g. right after a sign-up created the operator.
 */
export class IssueOperatorTokenPayload {
  @IsUUID('all', { message: 'uuid' })
  operatorID!: string;
}

export interface IssueOperatorTokenReply {
  token: string;
  expiresInSeconds: number;
}

export const IssueOperatorToken = defineMessage<IssueOperatorTokenPayload, IssueOperatorTokenReply>('operator-tokens.issue', IssueOperatorTokenPayload);
