import { Injectable } from '@nestjs/common';
import {
  AcceptInvitation,
  AcceptInvitationReply,
  CheckInvitation,
  CheckOperatorEmail,
  CreateInvitation,
  CreateInvitationPayload,
  CreateInvitationReply,
  RegisterOperator,
  RegisterOperatorPayload,
  RegisterOperatorReply,
  WithdrawInvitation,
} from '@platform/contracts';
import { TransportClient } from '@platform/transport';

/**
 * Operators, memberships and invitations belong to core-tenants, which alone
 * writes them (docs/data-access.md#table-ownership): sign-up asks it over the
 * transport. Failures come back as the transport's 503 5903 or 504 5904.
 */
@Injectable()
export class OperatorsClient {
  constructor(private readonly transport: TransportClient) {}

  register(operator: RegisterOperatorPayload): Promise<RegisterOperatorReply> {
    return this.transport.send(RegisterOperator, operator);
  }

  async hasAccount(email: string): Promise<boolean> {
    return (await this.transport.send(CheckOperatorEmail, { email })).hasAccount;
  }

  async invitationUsable(tokenHash: string, email: string): Promise<boolean> {
    return (await this.transport.send(CheckInvitation, { tokenHash, email })).usable;
  }

  createInvitation(invitation: CreateInvitationPayload): Promise<CreateInvitationReply> {
    return this.transport.send(CreateInvitation, invitation);
  }

  async withdrawInvitation(invitationID: string): Promise<boolean> {
    return (await this.transport.send(WithdrawInvitation, { invitationID })).withdrawn;
  }

  acceptInvitation(operatorID: string, tokenHash: string): Promise<AcceptInvitationReply> {
    return this.transport.send(AcceptInvitation, { operatorID, tokenHash });
  }
}
