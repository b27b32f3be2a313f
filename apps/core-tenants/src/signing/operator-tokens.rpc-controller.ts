import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { IssueOperatorToken, IssueOperatorTokenPayload, IssueOperatorTokenReply } from '@platform/contracts';
import { IssueOperatorTokenUseCase } from './issue-operator-token.use-case';

/** Operator tokens for other apps over the transport. */
// Transport handlers, no HTTP route: their payloads are no part of the OpenAPI document.
@ApiExcludeController()
@Controller()
export class OperatorTokensRpcController {
  constructor(private readonly issueOperatorToken: IssueOperatorTokenUseCase) {}

  @MessagePattern(IssueOperatorToken.pattern)
  issue(@Payload() payload: IssueOperatorTokenPayload): Promise<IssueOperatorTokenReply> {
    return this.issueOperatorToken.execute({ operatorID: payload.operatorID });
  }
}
