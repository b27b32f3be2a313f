import { Injectable } from '@nestjs/common';
import { IssueOperatorToken } from '@platform/contracts';
import { TransportClient } from '@platform/transport';

/** Operator tokens come from core-tenants, the only holder of the signing key. */
@Injectable()
export class OperatorTokenClient {
  constructor(private readonly transport: TransportClient) {}

  async issue(operatorID: string): Promise<string> {
    const reply = await this.transport.send(IssueOperatorToken, { operatorID });
    return reply.token;
  }
}
