import { Controller, Get, Header, HttpCode, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiNoDependency } from '@platform/http-common';
import type { FastifyRequest } from 'fastify';
import { ApplyTemplateStatusUseCase } from './apply-template-status.use-case';
import { WebhookSubscriptionQuery } from './template-status-webhook.dto';
import { WebhookSignatureGuard } from './webhook-signature.guard';
import { WebhookVerifyTokenGuard } from './webhook-verify-token.guard';

/**
 * Status sync: the provider's `message_template_status_update` webhook
 * (docs/campaign-models.md). No bearer token: the guards check the provider's
 * credentials, the verify token of the handshake and the signature of each delivery.
 */
@ApiTags('Webhooks')
@Controller('v1/webhooks/whatsapp')
export class TemplateStatusWebhookController {
  constructor(private readonly applyStatus: ApplyTemplateStatusUseCase) {}

  @Get()
  @UseGuards(WebhookVerifyTokenGuard)
  @Header('content-type', 'text/plain; charset=utf-8')
  @ApiOperation({
    operationId: 'confirmTemplateStatusWebhook',
    summary: 'Confirm the webhook subscription to the provider',
    description: 'Answers hub.challenge as plain text when hub.verify_token is WHATSAPP_WEBHOOK_VERIFY_TOKEN; else 403 1004.',
  })
  @ApiOkResponse({ description: 'The challenge, as sent' })
  @ApiErrors('Forbidden')
  @ApiNoDependency()
  confirmSubscription(@Query() query: WebhookSubscriptionQuery): string {
    return query['hub.challenge'];
  }

  @Post()
  @HttpCode(200)
  @UseGuards(WebhookSignatureGuard)
  @ApiOperation({
    operationId: 'receiveTemplateStatusUpdates',
    summary: 'Receive message-template status updates from the provider',
    description: 'Body as the provider sends it. 401 1003 when X-Hub-Signature-256 is not the HMAC-SHA256 of the body with the app secret.',
  })
  @ApiHeader({ name: 'x-hub-signature-256', required: true, description: 'sha256=<hex HMAC-SHA256 of the raw body>' })
  @ApiBody({ schema: { type: 'object', description: 'The status updates, as the provider sends them' } })
  @ApiOkResponse({ description: '{received: number of status updates read}' })
  @ApiErrors('Unauthorized')
  async receive(@Req() request: FastifyRequest): Promise<{ received: number }> {
    return this.applyStatus.execute({ delivery: request.body });
  }
}
