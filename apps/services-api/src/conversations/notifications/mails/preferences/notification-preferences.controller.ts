import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal } from '@platform/auth';
import { ApiErrors, TenantParams } from '@platform/http-common';
import { GetNotificationPreferencesUseCase } from './get-notification-preferences.use-case';
import { NotificationPreferencesDto, NotificationPreferencesResponse } from './notification-preferences.dto';
import { SetNotificationPreferencesUseCase } from './set-notification-preferences.use-case';

/** The requesting operator's notification mail preferences in a tenant (docs/notifications.md). */
@ApiTags('Notifications')
@Controller('v1/tenants/:tenantID/notification-preferences/me')
export class NotificationPreferencesController {
  constructor(
    private readonly getPreferences: GetNotificationPreferencesUseCase,
    private readonly setPreferences: SetNotificationPreferencesUseCase,
  ) {}

  @Get()
  @Auth('operator')
  @ApiOperation({
    operationId: 'readNotificationPreferences',
    summary: 'Read my notification preferences',
    description: 'Which events the requesting operator is mailed about while offline or away, in this tenant. Both are true until they choose.',
  })
  @ApiErrors('TenantNotFound')
  @ApiOkResponse({ type: NotificationPreferencesResponse })
  async read(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: TenantParams): Promise<NotificationPreferencesResponse> {
    return { data: await this.getPreferences.execute({ principal, tenantID: params.tenantID }) };
  }

  @Put()
  @Auth('operator')
  @ApiOperation({
    operationId: 'updateNotificationPreferences',
    summary: 'Replace my notification preferences',
    description:
      'Replaces which events the requesting operator is mailed about while offline or away, in this tenant: both fields are required. ' +
      'Mails not yet sent follow the new choice.',
  })
  @ApiErrors('TenantNotFound')
  @ApiOkResponse({ type: NotificationPreferencesResponse })
  async update(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: TenantParams, @Body() body: NotificationPreferencesDto): Promise<NotificationPreferencesResponse> {
    return { data: await this.setPreferences.execute({ principal, tenantID: params.tenantID, preferences: body }) };
  }
}
