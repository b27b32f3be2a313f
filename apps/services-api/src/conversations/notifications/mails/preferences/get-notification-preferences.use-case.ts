import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { NotificationPreferencesDto } from './notification-preferences.dto';
import { NotificationPreferencesRepository } from './notification-preferences.repository';

export interface GetNotificationPreferencesCommand {
  principal: OperatorPrincipal;
  tenantID: string;
}

/** The requesting operator's own preferences in a tenant they are a member of; the defaults until they choose. */
@Injectable()
export class GetNotificationPreferencesUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly preferences: NotificationPreferencesRepository,
  ) {}

  async execute(command: GetNotificationPreferencesCommand): Promise<NotificationPreferencesDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    return this.preferences.read(scope, command.principal.operatorID);
  }
}
