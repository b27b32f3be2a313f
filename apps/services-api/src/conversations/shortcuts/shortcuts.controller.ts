import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal } from '@platform/auth';
import { pageRequestOf, pageStatus, TenantParams } from '@platform/http-common';
import type { FastifyReply } from 'fastify';
import { ListShortcutsUseCase } from './list-shortcuts.use-case';
import { ShortcutListQuery, ShortcutListResponse } from './shortcut.dto';

@ApiTags('Operators/Shortcuts')
@Controller('v1/tenants/:tenantID/operators/shortcuts')
export class ShortcutsController {
  constructor(private readonly listShortcuts: ListShortcutsUseCase) {}

  /** Operation 7 (docs/sessions-and-shortcuts.md). */
  @Get()
  @Auth('operator')
  @ApiOperation({
    operationId: 'listOperatorShortcuts',
    summary: 'List operator shortcuts',
    description:
      'The requesting operator\'s personal shortcuts, then every company-wide one; each group by shortcutBang ' +
      '(case- and accent-insensitive), then shortcutID.',
  })
  @ApiResponse({ status: 200, type: ShortcutListResponse, description: 'The last page' })
  @ApiResponse({ status: 206, type: ShortcutListResponse, description: 'More pages follow' })
  async list(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: TenantParams,
    @Query() query: ShortcutListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ShortcutListResponse> {
    const response = await this.listShortcuts.execute({
      principal,
      tenantID: params.tenantID,
      scope: query.scope,
      search: query.search,
      page: pageRequestOf(query),
    });
    reply.status(pageStatus(response.meta));
    return response;
  }
}
