import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { NotificationPreferencesDto } from './notification-preferences.dto';
import { NotificationPreferencesRepository } from './notification-preferences.repository';

export interface SetNotificationPreferencesCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  preferences: NotificationPreferencesDto;
}

/**
 * Replaces the requesting operator's own preferences in a tenant they are a
 * member of. Only their own: the route has no operator id to name anyone
 * else. Takes effect for the events that follow and for the mails not yet
 * sent (an item of a kind turned off is dropped at the send).
 */
@Injectable()
export class SetNotificationPreferencesUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly preferences: NotificationPreferencesRepository,
  ) {}

  async execute(command: SetNotificationPreferencesCommand): Promise<NotificationPreferencesDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    return this.preferences.write(scope, command.principal.operatorID, command.preferences);
  }
}
