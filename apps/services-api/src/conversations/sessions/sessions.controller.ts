import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiPartialContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal } from '@platform/auth';
import { ApiErrors } from '@platform/http-common';
import { Idempotent, IdempotencyClaim, IdempotencyKeyClaim } from '@platform/idempotency';
import type { FastifyReply } from 'fastify';
import { ListSessionMessagesUseCase } from '../messages/list-session-messages.use-case';
import { DEFAULT_MESSAGES_PER_PAGE, MessageResponse, ReplyBody, SessionMessagesQuery, SessionMessagesResponse } from '../messages/message.dto';
import { PostReplyUseCase } from '../messages/post-reply.use-case';
import { AssignSessionUseCase } from './assign-session.use-case';
import { CloseSessionUseCase } from './close-session.use-case';
import { GetSessionUseCase } from './get-session.use-case';
import { JoinSessionUseCase } from './join-session.use-case';
import { ReadSessionUseCase } from './read-session.use-case';
import type { ConversationPrincipal } from './session-access';
import { SessionOperatorBody, SessionParams, SessionReadResponse, SessionResponse } from './session.dto';
import { TakeSessionUseCase } from './take-session.use-case';
import { TransferSessionUseCase } from './transfer-session.use-case';

const SEEN = 'An operator who may see the session (listed, assigned to them, or joined: operation 11\'s rule); else 404 1060.';

/** A session's life, replies and messages (docs/conversations.md). */
@ApiTags('Conversations')
@Controller('v1/tenants/:tenantID/sessions/:sessionID')
export class SessionsController {
  constructor(
    private readonly getSession: GetSessionUseCase,
    private readonly listMessages: ListSessionMessagesUseCase,
    private readonly postReply: PostReplyUseCase,
    private readonly takeSession: TakeSessionUseCase,
    private readonly assignSession: AssignSessionUseCase,
    private readonly transferSession: TransferSessionUseCase,
    private readonly joinSession: JoinSessionUseCase,
    private readonly closeSession: CloseSessionUseCase,
    private readonly readSession: ReadSessionUseCase,
  ) {}

  @Get()
  @Auth('operator', 'pluginConnection')
  @ApiOperation({
    operationId: 'readSession',
    summary: 'Read a session',
    description: `${SEEN} The plugin connection of the session's inbox reads it too. The session as operation 11 shows it, with its state.`,
  })
  @ApiErrors('TenantNotFound', 'SessionNotFound')
  @ApiOkResponse({ type: SessionResponse })
  async read(@CurrentPrincipal() principal: ConversationPrincipal, @Param() params: SessionParams): Promise<SessionResponse> {
    return { data: await this.getSession.execute({ principal, tenantID: params.tenantID, sessionID: params.sessionID }) };
  }

  @Get('messages')
  @Auth('operator', 'pluginConnection')
  @ApiOperation({
    operationId: 'listSessionMessages',
    summary: "List a session's messages",
    description:
      `${SEEN} The plugin connection of the session's inbox lists them too. Newest first, by keyset: pass meta.nextCursor as ` +
      '`cursor` for the next (older) page; every page costs the same at any depth. 206 while another page follows.',
  })
  @ApiErrors('TenantNotFound', 'SessionNotFound')
  @ApiOkResponse({ type: SessionMessagesResponse, description: 'The last page' })
  @ApiPartialContentResponse({ type: SessionMessagesResponse, description: 'Another page follows' })
  async messages(
    @CurrentPrincipal() principal: ConversationPrincipal,
    @Param() params: SessionParams,
    @Query() query: SessionMessagesQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionMessagesResponse> {
    const page = await this.listMessages.execute({
      principal,
      tenantID: params.tenantID,
      sessionID: params.sessionID,
      limit: query.limit === undefined ? DEFAULT_MESSAGES_PER_PAGE : Number(query.limit),
      cursor: query.cursor,
    });
    void reply.status(page.meta.nextCursor === null ? 200 : 206);
    return page;
  }

  @Post('messages')
  @HttpCode(201)
  @Auth('operator')
  @ApiOperation({
    operationId: 'replyToSession',
    summary: 'Reply in a session',
    description: `${SEEN} Stored outbound with deliveryStatus pending, for the inbox's plugin connection to send. A closed session refuses (409 1942).`,
  })
  @ApiErrors('TenantNotFound', 'SessionNotFound', 'SessionClosed', 'MessageContentTooLong')
  @Idempotent()
  @ApiCreatedResponse({ type: MessageResponse })
  async reply(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: SessionParams,
    @Body() body: ReplyBody,
    @IdempotencyClaim() idempotency: IdempotencyKeyClaim,
  ): Promise<MessageResponse> {
    return { data: await this.postReply.execute({ principal, tenantID: params.tenantID, sessionID: params.sessionID, content: body.content, idempotency }) };
  }

  @Post('take')
  @HttpCode(200)
  @Auth('operator')
  @ApiOperation({
    operationId: 'takeSession',
    summary: 'Take a queued session',
    description:
      `${SEEN} The operator becomes its assignee. Assigned: 409 1943; closed: 409 1942. ` +
      "On an inbox with a routed policy, an operator at the policy's capacity gets 409 1949 (an owner assigns it with override instead).",
  })
  @ApiErrors('TenantNotFound', 'SessionNotFound', 'SessionAlreadyAssigned', 'SessionClosed', 'OperatorAtCapacity')
  @ApiOkResponse({ type: SessionResponse })
  async take(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: SessionParams): Promise<SessionResponse> {
    return { data: await this.takeSession.execute({ principal, tenantID: params.tenantID, sessionID: params.sessionID }) };
  }

  @Post('assign')
  @HttpCode(200)
  @Auth('operator')
  @ApiOperation({
    operationId: 'assignSession',
    summary: 'Assign a queued session',
    description:
      'Owners only (a member gets 403 1004), to a member of the tenant (else 404 1990). Assigned: 409 1943 (transfer it); closed: 409 1942. ' +
      "On an inbox with a routed policy, an operator at the policy's capacity: 409 1949 unless `override: true`.",
  })
  @ApiErrors('TenantNotFound', 'SessionNotFound', 'MemberNotFound', 'SessionAlreadyAssigned', 'SessionClosed', 'OperatorAtCapacity')
  @ApiOkResponse({ type: SessionResponse })
  async assign(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: SessionParams, @Body() body: SessionOperatorBody): Promise<SessionResponse> {
    return { data: await this.assignSession.execute({ principal, tenantID: params.tenantID, sessionID: params.sessionID, operatorID: body.operatorID, override: body.override ?? false }) };
  }

  @Post('transfer')
  @HttpCode(200)
  @Auth('operator')
  @ApiOperation({
    operationId: 'transferSession',
    summary: 'Transfer an assigned session',
    description:
      'The assignee or an owner (another operator: 403 1004) hands it to another member (else 404 1990); the previous assignee stays a participant. ' +
      'Queued: 409 1944; to its assignee: 409 1945; closed: 409 1942. ' +
      "On an inbox with a routed policy, an operator at the policy's capacity: 409 1949 unless an owner passes `override: true` (anyone else: 403 1004).",
  })
  @ApiErrors('TenantNotFound', 'SessionNotFound', 'MemberNotFound', 'SessionNotAssigned', 'AlreadyInSession', 'SessionClosed', 'OperatorAtCapacity')
  @ApiOkResponse({ type: SessionResponse })
  async transfer(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: SessionParams, @Body() body: SessionOperatorBody): Promise<SessionResponse> {
    return {
      data: await this.transferSession.execute({ principal, tenantID: params.tenantID, sessionID: params.sessionID, operatorID: body.operatorID, override: body.override ?? false }),
    };
  }

  @Post('join')
  @HttpCode(200)
  @Auth('operator')
  @ApiOperation({ operationId: 'joinSession', summary: 'Join a session', description: `${SEEN} The operator becomes a participant. Already its assignee or a participant: 409 1945; closed: 409 1942.` })
  @ApiErrors('TenantNotFound', 'SessionNotFound', 'AlreadyInSession', 'SessionClosed')
  @ApiOkResponse({ type: SessionResponse })
  async join(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: SessionParams): Promise<SessionResponse> {
    return { data: await this.joinSession.execute({ principal, tenantID: params.tenantID, sessionID: params.sessionID }) };
  }

  @Post('close')
  @HttpCode(200)
  @Auth('operator')
  @ApiOperation({
    operationId: 'closeSession',
    summary: 'Close a session',
    description: 'The assignee or an owner (another operator: 403 1004). Closed already: 409 1942. The next inbound message opens a new session.',
  })
  @ApiErrors('TenantNotFound', 'SessionNotFound', 'SessionClosed')
  @ApiOkResponse({ type: SessionResponse })
  async close(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: SessionParams): Promise<SessionResponse> {
    return { data: await this.closeSession.execute({ principal, tenantID: params.tenantID, sessionID: params.sessionID }) };
  }

  @Post('read')
  @HttpCode(200)
  @Auth('operator')
  @ApiOperation({
    operationId: 'readSessionNotifications',
    summary: 'Mark a session read',
    description: `${SEEN} Marks the operator's notifications of the session read (operation 14 moves); reading again marks none.`,
  })
  @ApiErrors('TenantNotFound', 'SessionNotFound')
  @ApiOkResponse({ type: SessionReadResponse })
  async markRead(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: SessionParams): Promise<SessionReadResponse> {
    return { data: await this.readSession.execute({ principal, tenantID: params.tenantID, sessionID: params.sessionID }) };
  }
}
