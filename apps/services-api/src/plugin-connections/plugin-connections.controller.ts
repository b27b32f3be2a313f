import { Body, Controller, Delete, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal } from '@platform/auth';
import { DeletePluginConnectionUseCase } from './delete-plugin-connection.use-case';
import { InstallPluginConnectionUseCase } from './install-plugin-connection.use-case';
import {
  DeletedPluginConnectionResponse,
  InstallPluginBody,
  InstalledPluginConnectionResponse,
  PluginConnectionParams,
} from './plugin-connection.dto';
import { ApiErrors, NoStore, TenantParams } from '@platform/http-common';
import { IDEMPOTENCY_KEY_HEADER, Idempotent, IdempotencyClaim, IdempotencyKeyClaim, idempotencyKeyOf } from '@platform/idempotency';

/**
 * Plugin connections of a tenant. Owners only; core-tenants owns the
 * connections and the billing and VM providers, reached over the transport.
 */
@ApiTags('Plugins')
@Controller('v1/tenants/:tenantID/plugins/connections')
export class PluginConnectionsController {
  constructor(
    private readonly installConnection: InstallPluginConnectionUseCase,
    private readonly deleteConnection: DeletePluginConnectionUseCase,
  ) {}

  @Post()
  @NoStore()
  @Auth('operator')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'installPlugin',
    summary: 'Install a plugin on the tenant',
    description:
      'Creates the plugin connection and returns its token once. A paid plugin gets a subscription item at the billing ' +
      'provider, a hosted one a VM; a provider failure (502 5002) leaves no connection. Only tenant owners (else 403 1004).',
  })
  @ApiErrors('TenantNotFound', 'PluginAlreadyInstalled', 'TenantBillingNotConfigured', 'BadGateway', 'InternalServiceTimeout')
  @Idempotent()
  @ApiCreatedResponse({ type: InstalledPluginConnectionResponse })
  async install(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: TenantParams,
    @Body() body: InstallPluginBody,
    @Headers(IDEMPOTENCY_KEY_HEADER) idempotencyKey: string | undefined,
    @IdempotencyClaim() idempotency: IdempotencyKeyClaim,
  ): Promise<InstalledPluginConnectionResponse> {
    // The key also reaches core-tenants, so a retry reuses the install's provider idempotency keys.
    const key = idempotencyKeyOf(idempotencyKey);
    return { data: await this.installConnection.execute({ principal, tenantID: params.tenantID, pluginID: body.pluginID, idempotencyKey: key, idempotency }) };
  }

  /** Operation 1 (docs/plugin-connections.md). */
  @Delete(':pluginConnectionID')
  @Auth('operator')
  @ApiOperation({
    operationId: 'deletePluginConnection',
    summary: 'Delete a plugin connection',
    description:
      'Only tenant owners. A hosted connection\'s VM is deleted first (if that fails: 502 5002 and the connection stays); ' +
      'then the connection is removed and its token stops working at once; a paid connection\'s subscription item is ' +
      'canceled at the billing provider, retried until the provider confirms.',
  })
  @ApiErrors('TenantNotFound', 'PluginConnectionNotFound', 'BadGateway', 'InternalServiceTimeout')
  @ApiOkResponse({ type: DeletedPluginConnectionResponse })
  async remove(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: PluginConnectionParams): Promise<DeletedPluginConnectionResponse> {
    return { data: await this.deleteConnection.execute({ principal, tenantID: params.tenantID, pluginConnectionID: params.pluginConnectionID }) };
  }
}
