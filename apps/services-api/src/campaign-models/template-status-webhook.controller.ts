import { Controller, Get, Header, HttpCode, Inject, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiNoDependency, IsOneOf, IsStringOfLength } from '@platform/http-common';
import { timingSafeEqual } from 'node:crypto';
import { AppException } from '@platform/errors';
import type { RawBodyRequest } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApplyTemplateStatusUseCase } from './apply-template-status.use-case';

export const WEBHOOK_VERIFY_TOKEN = Symbol('WEBHOOK_VERIFY_TOKEN');

/** The provider's subscription handshake: `?hub.mode=subscribe&hub.verify_token=...&hub.challenge=...`. */
export class WebhookSubscriptionQuery {
  @ApiProperty({ name: 'hub.mode', enum: ['subscribe'] })
  @IsOneOf(['subscribe'])
  'hub.mode'!: string;

  @ApiProperty({ name: 'hub.verify_token' })
  @IsStringOfLength(1, 256)
  'hub.verify_token'!: string;

  @ApiProperty({ name: 'hub.challenge' })
  @IsStringOfLength(1, 256)
  'hub.challenge'!: string;
}

function sameToken(expected: string | undefined, presented: string): boolean {
  if (!expected) return false;
  const [a, b] = [Buffer.from(expected), Buffer.from(presented)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Status sync: the provider's `message_template_status_update` webhook
 * (docs/campaign-models.md). Authenticated by its signature only.
 */
@ApiTags('Webhooks')
@Controller('v1/webhooks/whatsapp')
export class TemplateStatusWebhookController {
  constructor(
    @Inject(WEBHOOK_VERIFY_TOKEN) private readonly verifyToken: string | undefined,
    private readonly applyStatus: ApplyTemplateStatusUseCase,
  ) {}

  @Get()
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
    if (!sameToken(this.verifyToken, query['hub.verify_token'])) throw new AppException('Forbidden');
    return query['hub.challenge'];
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'receiveTemplateStatusUpdates',
    summary: 'Receive message-template status updates from the provider',
    description: 'Body as the provider sends it. 401 1003 when X-Hub-Signature-256 is not the HMAC-SHA256 of the body with the app secret.',
  })
  @ApiHeader({ name: 'x-hub-signature-256', required: true, description: 'sha256=<hex HMAC-SHA256 of the raw body>' })
  @ApiBody({ schema: { type: 'object', description: 'The status updates, as the provider sends them' } })
  @ApiOkResponse({ description: '{received: number of status updates read}' })
  @ApiErrors('Unauthorized')
  async receive(@Req() request: RawBodyRequest<FastifyRequest>): Promise<{ received: number }> {
    return this.applyStatus.execute({ rawBody: request.rawBody, signature: request.headers['x-hub-signature-256'], body: request.body });
  }
}
