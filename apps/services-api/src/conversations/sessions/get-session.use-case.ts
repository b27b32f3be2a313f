import { Injectable } from '@nestjs/common';
import { TenantAccessService } from '@platform/auth';
import type { ConversationSessionDto } from '@platform/conversations';
import { ConversationPrincipal, refuseUnseen } from './session-access';
import { SessionsRepository } from './sessions.repository';

export interface GetSessionCommand {
  principal: ConversationPrincipal;
  tenantID: string;
  sessionID: string;
}

/** One session, for an operator who may see it or its inbox's plugin connection (else 404 1060). */
@Injectable()
export class GetSessionUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly sessions: SessionsRepository,
  ) {}

  async execute(command: GetSessionCommand): Promise<ConversationSessionDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    return refuseUnseen(command.principal, await this.sessions.view(scope, command.sessionID)).session;
  }
}
