import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { IssueOperatorToken, IssueOperatorTokenPayload, IssueOperatorTokenReply } from '@platform/contracts';
import { AppException } from '@platform/errors';
import { DataSource } from 'typeorm';
import { OperatorTokenSigner } from './operator-token.signer';

/**
 * Issues operator tokens for other apps over the transport (services-api's
 * sign-up). Only for operators that exist: an unknown id gets 1003, as an
 * unknown address does at sign-in.
 */
// Transport handlers, no HTTP route: their payloads are no part of the OpenAPI document.
@ApiExcludeController()
@Controller()
export class OperatorTokensController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly signer: OperatorTokenSigner,
  ) {}

  @MessagePattern(IssueOperatorToken.pattern)
  async issue(@Payload() payload: IssueOperatorTokenPayload): Promise<IssueOperatorTokenReply> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM operators WHERE id = $1', [payload.operatorID.toLowerCase()]);
    if (rows.length === 0) throw new AppException('Unauthorized');
    return this.signer.issue(payload.operatorID.toLowerCase());
  }
}
