import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPartialContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '@platform/auth';
import { ApiErrors } from '@platform/http-common';
import type { FastifyReply } from 'fastify';
import { InboxParams } from '../inboxes/inbox.dto';
import type { ConversationPrincipal } from '../sessions/session-access';
import { CountInboxSessionsUseCase } from './count-inbox-sessions.use-case';
import type { QueueState } from './inbox-session-filters';
import { DEFAULT_INBOX_SESSIONS_PER_PAGE, InboxSessionCountsResponse, InboxSessionsQuery, InboxSessionsResponse } from './inbox-sessions.dto';
import { ListInboxSessionsUseCase } from './list-inbox-sessions.use-case';

const READERS =
  "Operators of the tenant, and the inbox's own plugin connection (another inbox: 404 1940). Only the sessions the caller may see (operation 11's rule: " +
  'an operator sees the listed ones and those assigned to them or that they joined).';

/** An inbox's sessions as an operator's queue (docs/conversations.md#reading). */
@ApiTags('Conversations')
@Controller('v1/tenants/:tenantID/inboxes/:inboxID')
export class InboxSessionsController {
  constructor(
    private readonly listSessions: ListInboxSessionsUseCase,
    private readonly countSessions: CountInboxSessionsUseCase,
  ) {}

  @Get('sessions')
  @Auth('operator', 'pluginConnection')
  @ApiOperation({
    operationId: 'listInboxSessions',
    summary: "List an inbox's sessions",
    description:
      `${READERS} Most recently active first (a session's last message or last change: take, assign, transfer, join, close), by keyset: pass ` +
      'meta.nextCursor as `cursor` for the next page; every page costs the same at any depth. 206 while another page follows.',
  })
  @ApiErrors('TenantNotFound', 'InboxNotFound')
  @ApiOkResponse({ type: InboxSessionsResponse, description: 'The last page' })
  @ApiPartialContentResponse({ type: InboxSessionsResponse, description: 'Another page follows' })
  async list(
    @CurrentPrincipal() principal: ConversationPrincipal,
    @Param() params: InboxParams,
    @Query() query: InboxSessionsQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<InboxSessionsResponse> {
    const page = await this.listSessions.execute({
      principal,
      tenantID: params.tenantID,
      inboxID: params.inboxID,
      state: query.state as QueueState | undefined,
      assignee: query.assignee,
      limit: query.limit === undefined ? DEFAULT_INBOX_SESSIONS_PER_PAGE : Number(query.limit),
      cursor: query.cursor,
    });
    void reply.status(page.meta.nextCursor === null ? 200 : 206);
    return page;
  }

  @Get('session-counts')
  @Auth('operator', 'pluginConnection')
  @ApiOperation({
    operationId: 'countInboxSessions',
    summary: "Count an inbox's open sessions",
    description: `${READERS} Exact counts of the open sessions by state and assignee; closed sessions are not counted.`,
  })
  @ApiErrors('TenantNotFound', 'InboxNotFound')
  @ApiOkResponse({ type: InboxSessionCountsResponse })
  async counts(@CurrentPrincipal() principal: ConversationPrincipal, @Param() params: InboxParams): Promise<InboxSessionCountsResponse> {
    return { data: await this.countSessions.execute({ principal, tenantID: params.tenantID, inboxID: params.inboxID }) };
  }
}
