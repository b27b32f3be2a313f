import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, PluginConnectionPrincipal } from '@platform/auth';
import type { DeliveryStatus } from '@platform/conversations';
import { ApiErrors } from '@platform/http-common';
import type { ConversationPrincipal } from '../sessions/session-access';
import { ChangeDeliveryStatusUseCase } from './change-delivery-status.use-case';
import { GetMessageUseCase } from './get-message.use-case';
import { DeliveryStatusBody, MessageParams, MessageResponse } from './message.dto';

/** One message, and what the channel reports about the messages it sends (docs/conversations.md#message-status). */
@ApiTags('Conversations')
@Controller('v1/tenants/:tenantID/messages/:messageID')
export class MessagesController {
  constructor(
    private readonly getMessage: GetMessageUseCase,
    private readonly changeStatus: ChangeDeliveryStatusUseCase,
  ) {}

  @Get()
  @Auth('operator', 'pluginConnection')
  @ApiOperation({
    operationId: 'readMessage',
    summary: 'Read a message',
    description:
      "Whoever may see its session: an operator who may see it (listed, assigned to them, or joined: operation 11's rule), the plugin connection of its " +
      'inbox. Anyone else gets 404 1946, as for a message that does not exist.',
  })
  @ApiErrors('TenantNotFound', 'MessageNotFound')
  @ApiOkResponse({ type: MessageResponse })
  async read(@CurrentPrincipal() principal: ConversationPrincipal, @Param() params: MessageParams): Promise<MessageResponse> {
    return { data: await this.getMessage.execute({ principal, tenantID: params.tenantID, messageID: params.messageID }) };
  }

  @Put('delivery-status')
  @Auth('pluginConnection')
  @ApiOperation({
    operationId: 'reportDeliveryStatus',
    summary: "Report an outbound message's delivery",
    description:
      "The plugin connection of the message's inbox (else 404 1946, as for an inbound message). Forward only: pending, sent, delivered, read; failed " +
      'from pending or sent; anything else 409 1947. Reporting the current status again answers the message unchanged.',
  })
  @ApiErrors('TenantNotFound', 'MessageNotFound', 'MessageStatusRefused')
  @ApiOkResponse({ type: MessageResponse })
  async report(@CurrentPrincipal() principal: PluginConnectionPrincipal, @Param() params: MessageParams, @Body() body: DeliveryStatusBody): Promise<MessageResponse> {
    return { data: await this.changeStatus.execute({ principal, tenantID: params.tenantID, messageID: params.messageID, deliveryStatus: body.deliveryStatus as DeliveryStatus }) };
  }
}
