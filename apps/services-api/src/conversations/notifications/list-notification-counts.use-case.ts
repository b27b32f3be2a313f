import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { NotificationCountsRepository } from './notification-counts.repository';
import type { NotificationCounts } from '@platform/conversations';

export interface ListNotificationCountsCommand {
  principal: OperatorPrincipal;
  tenantID: string;
}

/** Operation 14: the requesting operator's unread notification counts in the tenant; an unknown tenant is 404 1062. */
@Injectable()
export class ListNotificationCountsUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly counts: NotificationCountsRepository,
  ) {}

  async execute(command: ListNotificationCountsCommand): Promise<NotificationCounts> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    return this.counts.unreadCounts(scope, command.principal.operatorID);
  }
}
