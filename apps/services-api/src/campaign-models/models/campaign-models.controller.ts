import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPartialContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal } from '@platform/auth';
import { ApiErrors, pageRequestOf, pageStatus, TenantParams } from '@platform/http-common';
import type { FastifyReply } from 'fastify';
import {
  CampaignModelListResponse,
  CampaignModelParams,
  CampaignModelResponse,
  CampaignModelWithSnippetResponse,
  CreateCampaignModelBody,
  ListCampaignModelsQuery,
  UpdateCampaignModelBody,
} from './campaign-model.dto';
import { CreateCampaignModelUseCase } from './create-campaign-model.use-case';
import { GetCampaignModelUseCase } from './get-campaign-model.use-case';
import { ListCampaignModelsUseCase } from './list-campaign-models.use-case';
import { UpdateCampaignModelUseCase } from './update-campaign-model.use-case';
import { Idempotent, IdempotencyClaim, IdempotencyKeyClaim } from '@platform/idempotency';

/** Operations 2-5 (docs/campaign-models.md): campaign models (message templates) of a tenant. */
@ApiTags('Campaigns/Models')
@Controller('v1/tenants/:tenantID/campaigns-models')
export class CampaignModelsController {
  constructor(
    private readonly createModel: CreateCampaignModelUseCase,
    private readonly listModels: ListCampaignModelsUseCase,
    private readonly getModel: GetCampaignModelUseCase,
    private readonly updateModel: UpdateCampaignModelUseCase,
  ) {}

  /** Operation 2. */
  @Post()
  @HttpCode(200)
  @Auth('operator')
  @ApiOperation({
    operationId: 'createCampaignModel',
    summary: 'Create a campaign model and submit it for provider approval',
    description:
      'The name is normalised (lowercase letters, digits, _) and the first free one of name, name_2, ... is reserved. ' +
      'If the provider cannot be reached, the model stays awaiting_submission and is submitted in the background.',
  })
  @ApiErrors('CampaignModelNameUnavailable')
  @Idempotent()
  @ApiOkResponse({ type: CampaignModelResponse })
  async create(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: TenantParams,
    @Body() body: CreateCampaignModelBody,
    @IdempotencyClaim() idempotency: IdempotencyKeyClaim,
  ): Promise<CampaignModelResponse> {
    const campaignModel = await this.createModel.execute({
      principal,
      tenantID: params.tenantID,
      channel: body.campaignModelChannel,
      channelID: body.campaignModelChannelID,
      name: body.campaignModelName,
      type: body.campaignModelType,
      description: body.campaignModelDescription,
      gatewayMeta: body.campaignModelGatewayMeta,
      meta: body.campaignModelMeta,
      slots: body.campaignModelSlots,
      tags: body.campaignModelTags,
      idempotency,
    });
    return { campaignModel };
  }

  /** Operation 4. */
  @Get()
  @Auth('operator')
  @ApiOperation({
    operationId: 'listCampaignModels',
    summary: 'List campaign models',
    description: 'Ordered by sortField then id; 206 while more pages exist.',
  })
  @ApiOkResponse({ type: CampaignModelListResponse })
  @ApiPartialContentResponse({ type: CampaignModelListResponse, description: 'More pages exist' })
  async list(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: TenantParams,
    @Query() query: ListCampaignModelsQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CampaignModelListResponse> {
    const list = await this.listModels.execute({
      principal,
      tenantID: params.tenantID,
      page: pageRequestOf(query),
      sortField: query.sortField,
      sortDirection: query.sortDirection,
      search: query.search,
      filters: query.filters,
    });
    void reply.status(pageStatus(list.meta));
    return list;
  }

  /** Operation 5. */
  @Get(':campaignModelID')
  @Auth('operator')
  @ApiOperation({
    operationId: 'readCampaignModel',
    summary: 'Read a campaign model, with the provider request that sends it',
  })
  @ApiErrors('CampaignModelNotFound')
  @ApiOkResponse({ type: CampaignModelWithSnippetResponse })
  async read(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: CampaignModelParams): Promise<CampaignModelWithSnippetResponse> {
    return this.getModel.execute({ principal, tenantID: params.tenantID, campaignModelID: params.campaignModelID });
  }

  /** Operation 3. */
  @Put(':campaignModelID')
  @Auth('operator')
  @ApiOperation({
    operationId: 'updateCampaignModel',
    summary: 'Update a campaign model\'s metadata and tags',
    description: 'Only campaignModelMeta and campaignModelTags change; the template is not resubmitted.',
  })
  @ApiErrors('CampaignModelNotFound')
  @ApiOkResponse({ type: CampaignModelResponse })
  async update(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: CampaignModelParams,
    @Body() body: UpdateCampaignModelBody,
  ): Promise<CampaignModelResponse> {
    const campaignModel = await this.updateModel.execute({
      principal,
      tenantID: params.tenantID,
      campaignModelID: params.campaignModelID,
      meta: body.campaignModelMeta,
      tags: body.campaignModelTags,
    });
    return { campaignModel };
  }
}
