import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiPartialContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal, PluginConnectionPrincipal } from '@platform/auth';
import { ApiErrors, pageRequestOf, pageStatus, TenantParams } from '@platform/http-common';
import { Idempotent, IdempotencyClaim, IdempotencyKeyClaim } from '@platform/idempotency';
import type { FastifyReply } from 'fastify';
import { InboundMessageBody, InboundMessageResponse } from '../messages/message.dto';
import { PostInboundMessageUseCase } from '../messages/post-inbound-message.use-case';
import { CreateInboxUseCase } from './create-inbox.use-case';
import { GetInboxUseCase } from './get-inbox.use-case';
import { CreateInboxBody, InboxListResponse, InboxParams, InboxResponse, ListInboxesQuery, RenameInboxBody } from './inbox.dto';
import { ListInboxesUseCase } from './list-inboxes.use-case';
import { RemoveInboxUseCase } from './remove-inbox.use-case';
import { RenameInboxUseCase } from './rename-inbox.use-case';

const OWNERS_ONLY_NOTE = 'Only owners of the tenant (a member gets 403 1004).';

/** A tenant's inboxes, and what their channel plugin connections post to them (docs/conversations.md). */
@ApiTags('Conversations')
@Controller('v1/tenants/:tenantID/inboxes')
export class InboxesController {
  constructor(
    private readonly createInbox: CreateInboxUseCase,
    private readonly listInboxes: ListInboxesUseCase,
    private readonly getInbox: GetInboxUseCase,
    private readonly renameInbox: RenameInboxUseCase,
    private readonly removeInbox: RemoveInboxUseCase,
    private readonly postInbound: PostInboundMessageUseCase,
  ) {}

  @Post()
  @HttpCode(201)
  @Auth('operator')
  @ApiOperation({
    operationId: 'createInbox',
    summary: 'Create an inbox',
    description: `${OWNERS_ONLY_NOTE} On a live plugin connection of the tenant (else 404 1054): the channel integration that posts to it.`,
  })
  @ApiErrors('TenantNotFound', 'PluginConnectionNotFound')
  @Idempotent()
  @ApiCreatedResponse({ type: InboxResponse })
  async create(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: TenantParams,
    @Body() body: CreateInboxBody,
    @IdempotencyClaim() idempotency: IdempotencyKeyClaim,
  ): Promise<InboxResponse> {
    const { name, channel, pluginConnectionID } = body;
    return { data: await this.createInbox.execute({ principal, tenantID: params.tenantID, name, channel, pluginConnectionID, idempotency }) };
  }

  @Get()
  @Auth('operator', 'pluginConnection')
  @ApiOperation({
    operationId: 'listInboxes',
    summary: 'List inboxes',
    description: "The inboxes the caller may use: every inbox of the tenant for its operators, a plugin connection's own for it. Oldest first; 206 while more pages exist.",
  })
  @ApiErrors('TenantNotFound')
  @ApiOkResponse({ type: InboxListResponse })
  @ApiPartialContentResponse({ type: InboxListResponse, description: 'More pages exist' })
  async list(
    @CurrentPrincipal() principal: OperatorPrincipal | PluginConnectionPrincipal,
    @Param() params: TenantParams,
    @Query() query: ListInboxesQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<InboxListResponse> {
    const list = await this.listInboxes.execute({ principal, tenantID: params.tenantID, page: pageRequestOf(query) });
    void reply.status(pageStatus(list.meta));
    return list;
  }

  @Get(':inboxID')
  @Auth('operator', 'pluginConnection')
  @ApiOperation({
    operationId: 'readInbox',
    summary: 'Read an inbox',
    description: "A live inbox the caller may use, as the list shows it: any of the tenant's for its operators, a plugin connection's own for it (else 404 1940).",
  })
  @ApiErrors('TenantNotFound', 'InboxNotFound')
  @ApiOkResponse({ type: InboxResponse })
  async read(@CurrentPrincipal() principal: OperatorPrincipal | PluginConnectionPrincipal, @Param() params: InboxParams): Promise<InboxResponse> {
    return { data: await this.getInbox.execute({ principal, tenantID: params.tenantID, inboxID: params.inboxID }) };
  }

  @Patch(':inboxID')
  @Auth('operator')
  @ApiOperation({ operationId: 'renameInbox', summary: 'Rename an inbox', description: OWNERS_ONLY_NOTE })
  @ApiErrors('TenantNotFound', 'InboxNotFound')
  @ApiOkResponse({ type: InboxResponse })
  async rename(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: InboxParams, @Body() body: RenameInboxBody): Promise<InboxResponse> {
    return { data: await this.renameInbox.execute({ principal, tenantID: params.tenantID, inboxID: params.inboxID, name: body.name }) };
  }

  @Delete(':inboxID')
  @HttpCode(204)
  @Auth('operator')
  @ApiOperation({
    operationId: 'removeInbox',
    summary: 'Remove an inbox',
    description: `${OWNERS_ONLY_NOTE} Refused while it has an open session (409 1941): close them first. Its closed sessions stay readable.`,
  })
  @ApiErrors('TenantNotFound', 'InboxNotFound', 'InboxHasOpenSessions')
  @ApiNoContentResponse({ description: 'Removed' })
  async remove(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: InboxParams): Promise<void> {
    await this.removeInbox.execute({ principal, tenantID: params.tenantID, inboxID: params.inboxID });
  }

  @Post(':inboxID/messages')
  @Auth('pluginConnection')
  @ApiOperation({
    operationId: 'postInboundMessage',
    summary: 'Post what a contact wrote',
    description:
      "The inbox's own plugin connection only (another inbox: 404 1940). Finds or creates the contact by its handle, continues its open session on the " +
      'inbox or opens a new queued one. Idempotent on channelMessageID: 201 when stored, 200 with the same message when the inbox has that id already.',
  })
  @ApiErrors('TenantNotFound', 'InboxNotFound', 'MessageContentTooLong')
  @ApiCreatedResponse({ type: InboundMessageResponse, description: 'Stored' })
  @ApiOkResponse({ type: InboundMessageResponse, description: 'The inbox had this channelMessageID already: that message, nothing written' })
  async postMessage(
    @CurrentPrincipal() principal: PluginConnectionPrincipal,
    @Param() params: InboxParams,
    @Body() body: InboundMessageBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<InboundMessageResponse> {
    const { contactHandle, contactName, channelMessageID, content } = body;
    const posted = await this.postInbound.execute({ principal, tenantID: params.tenantID, inboxID: params.inboxID, contactHandle, contactName, channelMessageID, content });
    void reply.status(posted.created ? 201 : 200);
    return { data: posted.posted };
  }
}
