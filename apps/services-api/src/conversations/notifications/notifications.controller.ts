import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal } from '@platform/auth';
import { NOTIFICATION_COUNTS_SCHEMA } from '@platform/conversations';
import type { NotificationCounts } from '@platform/conversations';
import { ListNotificationCountsUseCase } from './list-notification-counts.use-case';
import { ApiErrors, TenantParams } from '@platform/http-common';

@ApiTags('Notifications')
@Controller('v1/tenants/:tenantID/notifications')
export class NotificationsController {
  constructor(private readonly listCounts: ListNotificationCountsUseCase) {}

  /** Operation 14 (docs/sessions-and-shortcuts.md). */
  @Get()
  @Auth('operator')
  @ApiOperation({
    operationId: 'listNotifications',
    summary: 'List notifications',
    description:
      'The requesting operator\'s unread notification counts in the tenant, keyed by category: an inboxID for inbox ' +
      'notifications, else `mention`, `assignment` or `system`. Categories without unread notifications are absent.',
  })
  @ApiErrors('TenantNotFound')
  @ApiOkResponse({
    schema: { ...NOTIFICATION_COUNTS_SCHEMA, example: { '9b2f6c1e-4d3a-4f5b-8c7d-0e1f2a3b4c5d': 3, mention: 1 } },
  })
  async list(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: TenantParams): Promise<NotificationCounts> {
    return this.listCounts.execute({ principal, tenantID: params.tenantID });
  }
}
