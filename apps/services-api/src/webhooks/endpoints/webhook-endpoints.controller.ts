import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiPartialContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal } from '@platform/auth';
import { ApiErrors, NoStore, pageRequestOf, pageStatus, TenantParams } from '@platform/http-common';
import { Idempotent, IdempotencyClaim, IdempotencyKeyClaim } from '@platform/idempotency';
import { WEBHOOK_EVENT_PAYLOADS } from '@platform/webhooks';
import type { FastifyReply } from 'fastify';
import { CreateWebhookEndpointUseCase } from './create-webhook-endpoint.use-case';
import { DeleteWebhookEndpointUseCase } from './delete-webhook-endpoint.use-case';
import { GetWebhookEndpointUseCase } from './get-webhook-endpoint.use-case';
import { ListWebhookEndpointsUseCase } from './list-webhook-endpoints.use-case';
import { RotateWebhookEndpointSecretUseCase } from './rotate-webhook-endpoint-secret.use-case';
import { UpdateWebhookEndpointUseCase } from './update-webhook-endpoint.use-case';
import {
  CreateWebhookEndpointBody,
  ListWebhookEndpointsQuery,
  UpdateWebhookEndpointBody,
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
  WebhookEndpointWithSecretResponse,
} from './webhook-endpoint.dto';
import { WebhookEndpointParams } from '../webhook-endpoint-params';

const OWNERS_ONLY_NOTE = 'Only owners of the tenant (a member gets 403 1004).';

/**
 * A tenant's webhook endpoints and their signing secrets (docs/webhooks.md).
 * The event payloads' `data` schemas are components of the document, for
 * receivers to generate types from.
 */
@ApiTags('Webhooks')
@ApiExtraModels(...Object.values(WEBHOOK_EVENT_PAYLOADS))
@Controller('v1/tenants/:tenantID/webhooks/endpoints')
@Auth('operator')
export class WebhookEndpointsController {
  constructor(
    private readonly createEndpoint: CreateWebhookEndpointUseCase,
    private readonly listEndpoints: ListWebhookEndpointsUseCase,
    private readonly getEndpoint: GetWebhookEndpointUseCase,
    private readonly updateEndpoint: UpdateWebhookEndpointUseCase,
    private readonly deleteEndpoint: DeleteWebhookEndpointUseCase,
    private readonly rotateSecret: RotateWebhookEndpointSecretUseCase,
  ) {}

  @Post()
  @NoStore()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint',
    description:
      `${OWNERS_ONLY_NOTE} Answers the endpoint with its signing secret, shown this once. A URL the outbound policy refuses ` +
      '(plain http in production, a literal address that is not public) is 400 1002 on `url`. ' +
      'A tenant has at most WEBHOOK_ENDPOINTS_PER_TENANT endpoints (409 1961).',
  })
  @ApiErrors('TenantNotFound', 'WebhookEndpointLimitReached')
  @Idempotent()
  @ApiCreatedResponse({ type: WebhookEndpointWithSecretResponse })
  async create(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: TenantParams,
    @Body() body: CreateWebhookEndpointBody,
    @IdempotencyClaim() idempotency: IdempotencyKeyClaim,
  ): Promise<WebhookEndpointWithSecretResponse> {
    const { url, eventTypes, description, enabled } = body;
    return { data: await this.createEndpoint.execute({ principal, tenantID: params.tenantID, url, eventTypes, description, enabled, idempotency }) };
  }

  @Get()
  @ApiOperation({
    operationId: 'listWebhookEndpoints',
    summary: 'List webhook endpoints',
    description: `${OWNERS_ONLY_NOTE} Oldest first; 206 while more pages exist. Secrets are never listed.`,
  })
  @ApiErrors('TenantNotFound')
  @ApiOkResponse({ type: WebhookEndpointListResponse })
  @ApiPartialContentResponse({ type: WebhookEndpointListResponse, description: 'More pages exist' })
  async list(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: TenantParams,
    @Query() query: ListWebhookEndpointsQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookEndpointListResponse> {
    const list = await this.listEndpoints.execute({ principal, tenantID: params.tenantID, page: pageRequestOf(query) });
    void reply.status(pageStatus(list.meta));
    return list;
  }

  @Get(':webhookEndpointID')
  @ApiOperation({ operationId: 'readWebhookEndpoint', summary: 'Read a webhook endpoint', description: `${OWNERS_ONLY_NOTE} Without its secret.` })
  @ApiErrors('TenantNotFound', 'WebhookEndpointNotFound')
  @ApiOkResponse({ type: WebhookEndpointResponse })
  async read(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: WebhookEndpointParams): Promise<WebhookEndpointResponse> {
    return { data: await this.getEndpoint.execute({ principal, tenantID: params.tenantID, webhookEndpointID: params.webhookEndpointID }) };
  }

  @Patch(':webhookEndpointID')
  @ApiOperation({
    operationId: 'updateWebhookEndpoint',
    summary: 'Change a webhook endpoint',
    description:
      `${OWNERS_ONLY_NOTE} The fields sent change, the others stay. A new URL is judged like a created one. ` +
      '`enabled: true` on an endpoint the platform disabled after failures clears disabledAt, disabledReason and failingSince.',
  })
  @ApiErrors('TenantNotFound', 'WebhookEndpointNotFound')
  @ApiOkResponse({ type: WebhookEndpointResponse })
  async update(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: WebhookEndpointParams,
    @Body() body: UpdateWebhookEndpointBody,
  ): Promise<WebhookEndpointResponse> {
    const { url, eventTypes, description, enabled } = body;
    const changes = { url, eventTypes, description, enabled };
    return { data: await this.updateEndpoint.execute({ principal, tenantID: params.tenantID, webhookEndpointID: params.webhookEndpointID, changes }) };
  }

  @Delete(':webhookEndpointID')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    description: `${OWNERS_ONLY_NOTE} Its deliveries and their attempts are deleted with it.`,
  })
  @ApiErrors('TenantNotFound', 'WebhookEndpointNotFound')
  @ApiNoContentResponse({ description: 'Deleted' })
  async remove(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: WebhookEndpointParams): Promise<void> {
    await this.deleteEndpoint.execute({ principal, tenantID: params.tenantID, webhookEndpointID: params.webhookEndpointID });
  }

  @Post(':webhookEndpointID/secret-rotations')
  @NoStore()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'rotateWebhookEndpointSecret',
    summary: "Rotate a webhook endpoint's signing secret",
    description:
      `${OWNERS_ONLY_NOTE} Answers the endpoint with its new secret, shown this once. The secret it replaces still signs ` +
      'deliveries, beside the new one, until previousSecretExpiresAt (WEBHOOK_SECRET_ROTATION_GRACE_HOURS later); ' +
      'a secret older than that stops signing at once.',
  })
  @ApiErrors('TenantNotFound', 'WebhookEndpointNotFound')
  @Idempotent()
  @ApiCreatedResponse({ type: WebhookEndpointWithSecretResponse })
  async rotate(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: WebhookEndpointParams,
    @IdempotencyClaim() idempotency: IdempotencyKeyClaim,
  ): Promise<WebhookEndpointWithSecretResponse> {
    return { data: await this.rotateSecret.execute({ principal, tenantID: params.tenantID, webhookEndpointID: params.webhookEndpointID, idempotency }) };
  }
}
