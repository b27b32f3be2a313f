import { Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiPartialContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Principal } from '@platform/auth';
import type { WebhookDeliveryStatus } from '@platform/database';
import { ApiErrors, pageRequestOf, pageStatus } from '@platform/http-common';
import { Idempotent, IdempotencyClaim, IdempotencyKeyClaim } from '@platform/idempotency';
import type { FastifyReply } from 'fastify';
import {
  ListWebhookDeliveriesQuery,
  WebhookDeliveryDetailResponse,
  WebhookDeliveryListResponse,
  WebhookDeliveryParams,
  WebhookDeliveryResponse,
} from './webhook-delivery.dto';
import { GetWebhookDeliveryUseCase } from './get-webhook-delivery.use-case';
import { ListWebhookDeliveriesUseCase } from './list-webhook-deliveries.use-case';
import { RetryWebhookDeliveryUseCase } from './retry-webhook-delivery.use-case';
import { SendWebhookTestEventUseCase } from './send-webhook-test-event.use-case';
import { WebhookEndpointParams } from '../webhook-endpoint-params';

/**
 * The delivery log of a tenant's webhook endpoint, re-sending by hand and
 * test events (docs/webhooks.md, The delivery log). Owners only. Every
 * profile is accepted so that plugins and connections get 403 1004 from the
 * owner check, not 401.
 */
@ApiTags('Webhooks')
@Controller('v1/tenants/:tenantID/webhooks/endpoints/:webhookEndpointID')
export class WebhookDeliveriesController {
  constructor(
    private readonly listDeliveries: ListWebhookDeliveriesUseCase,
    private readonly getDelivery: GetWebhookDeliveryUseCase,
    private readonly retryDelivery: RetryWebhookDeliveryUseCase,
    private readonly sendTestEvent: SendWebhookTestEventUseCase,
  ) {}

  @Get('deliveries')
  @Auth('operator', 'plugin', 'pluginConnection')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: "List a webhook endpoint's deliveries",
    description: 'One delivery per event sent to the endpoint, newest first, filtered by status; 206 while more pages exist. Owners only.',
  })
  @ApiErrors('TenantNotFound', 'WebhookEndpointNotFound')
  @ApiOkResponse({ type: WebhookDeliveryListResponse })
  @ApiPartialContentResponse({ type: WebhookDeliveryListResponse, description: 'More pages exist' })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param() params: WebhookEndpointParams,
    @Query() query: ListWebhookDeliveriesQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookDeliveryListResponse> {
    const page = await this.listDeliveries.execute({
      principal,
      tenantID: params.tenantID,
      webhookEndpointID: params.webhookEndpointID,
      page: pageRequestOf(query),
      status: query.status as WebhookDeliveryStatus | undefined,
    });
    void reply.status(pageStatus(page.meta));
    return page;
  }

  @Get('deliveries/:webhookDeliveryID')
  @Auth('operator', 'plugin', 'pluginConnection')
  @ApiOperation({
    operationId: 'getWebhookDelivery',
    summary: 'Read a webhook delivery and its attempts',
    description: 'The delivery and each attempt, oldest first: when, the status code, how long, and why it failed. Owners only.',
  })
  @ApiErrors('TenantNotFound', 'WebhookEndpointNotFound', 'WebhookDeliveryNotFound')
  @ApiOkResponse({ type: WebhookDeliveryDetailResponse })
  async read(@CurrentPrincipal() principal: Principal, @Param() params: WebhookDeliveryParams): Promise<WebhookDeliveryDetailResponse> {
    return { data: await this.getDelivery.execute({ principal, ...params }) };
  }

  @Post('deliveries/:webhookDeliveryID/retries')
  @Auth('operator', 'plugin', 'pluginConnection')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'retryWebhookDelivery',
    summary: 'Re-send a webhook delivery now',
    description:
      'A failed delivery gets one more attempt, a pending one is attempted now rather than at its next retry; same webhook-id. ' +
      '409 1967 when it already succeeded, 409 1968 while the endpoint is disabled. Owners only.',
  })
  @ApiErrors('TenantNotFound', 'WebhookEndpointNotFound', 'WebhookDeliveryNotFound', 'WebhookDeliveryAlreadySucceeded', 'WebhookEndpointDisabled')
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse })
  async retry(@CurrentPrincipal() principal: Principal, @Param() params: WebhookDeliveryParams): Promise<WebhookDeliveryResponse> {
    return { data: await this.retryDelivery.execute({ principal, ...params }) };
  }

  @Post('test-events')
  @Auth('operator', 'plugin', 'pluginConnection')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'sendWebhookTestEvent',
    summary: 'Send a test event to a webhook endpoint',
    description: 'Queues a webhook.test delivery to this endpoint only and answers it (its id, pending). 409 1968 while the endpoint is disabled. Owners only.',
  })
  @ApiErrors('TenantNotFound', 'WebhookEndpointNotFound', 'WebhookEndpointDisabled')
  @Idempotent()
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse })
  async test(
    @CurrentPrincipal() principal: Principal,
    @Param() params: WebhookEndpointParams,
    @IdempotencyClaim() idempotency: IdempotencyKeyClaim,
  ): Promise<WebhookDeliveryResponse> {
    return { data: await this.sendTestEvent.execute({ principal, ...params, idempotency }) };
  }
}
