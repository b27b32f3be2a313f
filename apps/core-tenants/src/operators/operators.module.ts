import { Module } from '@nestjs/common';
import { MemberStanding } from '../members/member-standing';
import { AcceptInvitationUseCase } from './accept-invitation.use-case';
import { CheckInvitationUseCase } from './check-invitation.use-case';
import { CheckOperatorEmailUseCase } from './check-operator-email.use-case';
import { CreateInvitationUseCase } from './create-invitation.use-case';
import { ListPendingInvitationsUseCase } from './list-pending-invitations.use-case';
import { OperatorsRepository } from './operators.repository';
import { OperatorsRpcController } from './operators.rpc-controller';
import { RegisterOperatorUseCase } from './register-operator.use-case';
import { WithdrawInvitationUseCase } from './withdraw-invitation.use-case';

/** Operators, memberships and invitations: the writes of sign-up and of tenant invitations, asked for by services-api. */
@Module({
  controllers: [OperatorsRpcController],
  providers: [
    OperatorsRepository,
    MemberStanding,
    RegisterOperatorUseCase,
    CheckOperatorEmailUseCase,
    CreateInvitationUseCase,
    WithdrawInvitationUseCase,
    CheckInvitationUseCase,
    AcceptInvitationUseCase,
    ListPendingInvitationsUseCase,
  ],
})
export class OperatorsModule {}
