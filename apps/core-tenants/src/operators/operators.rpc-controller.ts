import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { trustedTenantScope } from '@platform/auth';
import { canonicalUuid } from '@platform/http-common';
import {
  AcceptInvitation,
  AcceptInvitationPayload,
  AcceptInvitationReply,
  CheckInvitation,
  CheckInvitationPayload,
  CheckInvitationReply,
  CheckOperatorEmail,
  CheckOperatorEmailPayload,
  CheckOperatorEmailReply,
  CreateInvitation,
  CreateInvitationPayload,
  CreateInvitationReply,
  ListPendingInvitations,
  ListPendingInvitationsPayload,
  ListPendingInvitationsReply,
  RegisterOperator,
  RegisterOperatorPayload,
  RegisterOperatorReply,
  RevokeInvitation,
  RevokeInvitationPayload,
  RevokeInvitationReply,
  WithdrawInvitation,
  WithdrawInvitationPayload,
  WithdrawInvitationReply,
} from '@platform/contracts';
import { AcceptInvitationUseCase } from './accept-invitation.use-case';
import { CheckInvitationUseCase } from './check-invitation.use-case';
import { CheckOperatorEmailUseCase } from './check-operator-email.use-case';
import { CreateInvitationUseCase } from './create-invitation.use-case';
import { ListPendingInvitationsUseCase } from './list-pending-invitations.use-case';
import { RegisterOperatorUseCase } from './register-operator.use-case';
import { WithdrawInvitationUseCase } from './withdraw-invitation.use-case';

/**
 * Operators and invitations over the transport: services-api's sign-up has
 * proven the address, or checked that the inviter owns the tenant.
 */
// Transport handlers, no HTTP route: their payloads are no part of the OpenAPI document.
@ApiExcludeController()
@Controller()
export class OperatorsRpcController {
  constructor(
    private readonly registration: RegisterOperatorUseCase,
    private readonly emailCheck: CheckOperatorEmailUseCase,
    private readonly creation: CreateInvitationUseCase,
    private readonly withdrawal: WithdrawInvitationUseCase,
    private readonly invitationCheck: CheckInvitationUseCase,
    private readonly acceptance: AcceptInvitationUseCase,
    private readonly pendingList: ListPendingInvitationsUseCase,
  ) {}

  @MessagePattern(RegisterOperator.pattern)
  register(@Payload() payload: RegisterOperatorPayload): Promise<RegisterOperatorReply> {
    return this.registration.execute({
      operator: { email: payload.email, firstname: payload.firstname, lastname: payload.lastname ?? null, passwordHash: payload.passwordHash },
      invitationTokenHash: payload.invitationTokenHash,
    });
  }

  @MessagePattern(CheckOperatorEmail.pattern)
  checkEmail(@Payload() payload: CheckOperatorEmailPayload): Promise<CheckOperatorEmailReply> {
    return this.emailCheck.execute({ email: payload.email });
  }

  @MessagePattern(CreateInvitation.pattern)
  createInvitation(@Payload() payload: CreateInvitationPayload): Promise<CreateInvitationReply> {
    return this.creation.execute({
      id: canonicalUuid(payload.invitationID),
      tenantID: canonicalUuid(payload.tenantID),
      email: payload.email,
      tokenHash: payload.tokenHash,
      invitedBy: canonicalUuid(payload.invitedBy),
      expiresAt: new Date(payload.expiresAt),
    });
  }

  @MessagePattern(WithdrawInvitation.pattern)
  withdrawInvitation(@Payload() payload: WithdrawInvitationPayload): Promise<WithdrawInvitationReply> {
    return this.withdrawal.execute({ invitationID: canonicalUuid(payload.invitationID), reason: 'mailNotQueued' });
  }

  @MessagePattern(ListPendingInvitations.pattern)
  listPendingInvitations(@Payload() payload: ListPendingInvitationsPayload): Promise<ListPendingInvitationsReply> {
    return this.pendingList.execute({ scope: trustedTenantScope(canonicalUuid(payload.tenantID)), offset: payload.offset, limit: payload.limit });
  }

  /** An owner's revocation is the withdrawal of an invitation whose mail could not be queued, limited to their tenant. */
  @MessagePattern(RevokeInvitation.pattern)
  async revokeInvitation(@Payload() payload: RevokeInvitationPayload): Promise<RevokeInvitationReply> {
    await this.withdrawal.execute({ invitationID: canonicalUuid(payload.invitationID), tenantID: canonicalUuid(payload.tenantID), reason: 'revokedByOwner' });
    return { revoked: true };
  }

  @MessagePattern(CheckInvitation.pattern)
  checkInvitation(@Payload() payload: CheckInvitationPayload): Promise<CheckInvitationReply> {
    return this.invitationCheck.execute({ tokenHash: payload.tokenHash, email: payload.email });
  }

  @MessagePattern(AcceptInvitation.pattern)
  acceptInvitation(@Payload() payload: AcceptInvitationPayload): Promise<AcceptInvitationReply> {
    return this.acceptance.execute({ operatorID: canonicalUuid(payload.operatorID), tokenHash: payload.tokenHash });
  }
}
