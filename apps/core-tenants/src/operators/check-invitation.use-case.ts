import { Injectable } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { CheckInvitationReply } from '@platform/contracts';
import { usableInvitation } from './invitations';
import { OperatorsRepository } from './operators.repository';

export interface CheckInvitationCommand {
  tokenHash: string;
  email: string;
}

/** A look without a lock, so services-api spends no password hashing on a bogus token; the sign-up checks again. */
@Injectable()
export class CheckInvitationUseCase {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly clock: Clock,
  ) {}

  async execute(command: CheckInvitationCommand): Promise<CheckInvitationReply> {
    const invitation = await this.operators.invitationByTokenHash(command.tokenHash);
    return { usable: usableInvitation(invitation, command.email, this.clock.now().getTime()) };
  }
}
