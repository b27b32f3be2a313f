import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiPartialContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal, PluginConnectionPrincipal } from '@platform/auth';
import type { FastifyReply } from 'fastify';
import { DeletePluginConnectionUseCase } from './delete-plugin-connection.use-case';
import { InstallPluginConnectionUseCase } from './install-plugin-connection.use-case';
import { ListPluginConnectionsUseCase } from './list-plugin-connections.use-case';
import { DEFAULT_CONNECTIONS_PER_PAGE, PluginConnectionsQuery, PluginConnectionsResponse } from './plugin-connection-list.dto';
import {
  DeletedPluginConnectionResponse,
  InstallPluginBody,
  InstalledPluginConnectionResponse,
  PluginConnectionParams,
} from './plugin-connection.dto';
import { ApiErrors, NoStore, TenantParams } from '@platform/http-common';
import { IDEMPOTENCY_KEY_HEADER, Idempotent, IdempotencyClaim, IdempotencyKeyClaim, idempotencyKeyOf } from '@platform/idempotency';

/**
 * Plugin connections of a tenant. Owners install and delete them; core-tenants
 * owns the connections and the billing and VM providers, reached over the
 * transport. The list reads them through a listed read path.
 */
@ApiTags('Plugins')
@Controller('v1/tenants/:tenantID/plugins/connections')
export class PluginConnectionsController {
  constructor(
    private readonly installConnection: InstallPluginConnectionUseCase,
    private readonly deleteConnection: DeletePluginConnectionUseCase,
    private readonly listConnections: ListPluginConnectionsUseCase,
  ) {}

  @Get()
  @Auth('operator', 'pluginConnection')
  @ApiOperation({
    operationId: 'listPluginConnections',
    summary: "List the tenant's plugin connections",
    description:
      'The live plugin connections of the tenant, each with its plugin and its live inboxes: every one for its operators, only itself for a plugin ' +
      'connection. Oldest first, by keyset: pass meta.nextCursor as `cursor` for the next page. 206 while another page follows.',
  })
  @ApiErrors('TenantNotFound')
  @ApiOkResponse({ type: PluginConnectionsResponse, description: 'The last page' })
  @ApiPartialContentResponse({ type: PluginConnectionsResponse, description: 'Another page follows' })
  async list(
    @CurrentPrincipal() principal: OperatorPrincipal | PluginConnectionPrincipal,
    @Param() params: TenantParams,
    @Query() query: PluginConnectionsQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PluginConnectionsResponse> {
    const page = await this.listConnections.execute({
      principal,
      tenantID: params.tenantID,
      limit: query.limit === undefined ? DEFAULT_CONNECTIONS_PER_PAGE : Number(query.limit),
      cursor: query.cursor,
    });
    void reply.status(page.meta.nextCursor === null ? 200 : 206);
    return page;
  }

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
