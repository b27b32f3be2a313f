import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppException } from '@platform/errors';
import type { RawBodyRequest } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApplyTemplateStatus } from './apply-template-status.usecase';
import { signatureMatches, statusUpdatesOf } from './template-status-webhook';

export const WEBHOOK_APP_SECRET = Symbol('WEBHOOK_APP_SECRET');

/**
 * Status sync: the provider's `message_template_status_update` webhook
 * (docs/campaign-models.md). Authenticated by its signature only.
 */
@ApiTags('Webhooks')
@Controller('v1/webhooks/whatsapp')
export class TemplateStatusWebhookController {
  constructor(
    @Inject(WEBHOOK_APP_SECRET) private readonly appSecret: string | undefined,
    private readonly applyStatus: ApplyTemplateStatus,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Receive message-template status updates from the provider',
    description: 'Body as the provider sends it. 401 1003 when X-Hub-Signature-256 is not the HMAC-SHA256 of the body with the app secret.',
  })
  @ApiHeader({ name: 'x-hub-signature-256', required: true, description: 'sha256=<hex HMAC-SHA256 of the raw body>' })
  @ApiOkResponse({ description: '{received: number of status updates read}' })
  async receive(@Req() request: RawBodyRequest<FastifyRequest>): Promise<{ received: number }> {
    if (!signatureMatches(this.appSecret, request.rawBody, request.headers['x-hub-signature-256'])) throw new AppException('Unauthorized');
    const updates = statusUpdatesOf(request.body, new Date());
    for (const update of updates) await this.applyStatus.execute(update);
    return { received: updates.length };
  }
}
