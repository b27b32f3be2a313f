import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPartialContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import { ApiErrors, listMeta, pageRequestOf, pageStatus } from '@platform/http-common';
import type { FastifyReply } from 'fastify';
import { parseCampaignModelFilters } from './campaign-model-filters';
import {
  CampaignModelList,
  CampaignModelParams,
  CampaignModelResponse,
  CampaignModelWithSnippetResponse,
  CreateCampaignModelBody,
  ListCampaignModelsQuery,
  TenantParams,
  UpdateCampaignModelBody,
} from './campaign-model.dto';
import { campaignReqSnippetOf } from './campaign-req-snippet';
import { CampaignModelsListRepository } from './campaign-models-list.repository';
import { CampaignModelsRepository } from './campaign-models.repository';
import { CreateCampaignModel } from './create-campaign-model.usecase';
import type { Slots } from './template-content';

/** SPEC.md operations 2-5: campaign models (message templates) of a tenant. */
@ApiTags('Campaigns/Models')
@Controller('v1/tenants/:tenantID/campaigns-models')
export class CampaignModelsController {
  constructor(
    private readonly access: TenantAccessService,
    private readonly createModel: CreateCampaignModel,
    private readonly models: CampaignModelsRepository,
    private readonly lists: CampaignModelsListRepository,
  ) {}

  /** Operation 2. */
  @Post()
  @HttpCode(200)
  @Auth('operator')
  @ApiOperation({
    summary: 'Create a campaign model and submit it for provider approval',
    description:
      'The name is normalised (lowercase letters, digits, _) and the first free one of name, name_2, ... is reserved. ' +
      'If the provider cannot be reached, the model stays awaiting_submission and is submitted in the background.',
  })
  @ApiErrors('CampaignModelNameUnavailable')
  @ApiOkResponse({ type: CampaignModelResponse })
  async create(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: TenantParams,
    @Body() body: CreateCampaignModelBody,
  ): Promise<CampaignModelResponse> {
    await this.access.require(principal, params.tenantID);
    return { campaignModel: await this.createModel.execute(params.tenantID, principal.operatorID, body) };
  }

  /** Operation 4. */
  @Get()
  @Auth('operator')
  @ApiOperation({
    summary: 'List campaign models',
    description: 'Ordered by sortField then id; 206 while more pages exist.',
  })
  @ApiOkResponse({ type: CampaignModelList })
  @ApiPartialContentResponse({ type: CampaignModelList, description: 'More pages exist' })
  async list(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: TenantParams,
    @Query() query: ListCampaignModelsQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CampaignModelList> {
    await this.access.require(principal, params.tenantID);
    const page = pageRequestOf(query);
    const { totalCount, data } = await this.lists.list({
      tenantID: params.tenantID,
      ...page,
      sortField: query.sortField ?? 'createdAt',
      descending: (query.sortDirection ?? '-1') === '-1',
      search: query.search,
      filters: query.filters === undefined ? undefined : parseCampaignModelFilters(query.filters),
    });
    const meta = listMeta(page, totalCount, data.length);
    void reply.status(pageStatus(meta));
    return { data, meta };
  }

  /** Operation 5. */
  @Get(':campaignModelID')
  @Auth('operator')
  @ApiOperation({
    summary: 'Read a campaign model, with the provider request that sends it',
  })
  @ApiErrors('CampaignModelNotFound')
  @ApiOkResponse({ type: CampaignModelWithSnippetResponse })
  async read(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: CampaignModelParams): Promise<CampaignModelWithSnippetResponse> {
    await this.access.require(principal, params.tenantID);
    const found = await this.models.findView(params.tenantID, params.campaignModelID);
    if (!found) throw new AppException('CampaignModelNotFound');
    const { language, ...campaignModel } = found;
    const campaignReqSnippet = campaignReqSnippetOf({
      name: campaignModel.campaignModelName,
      language,
      slots: campaignModel.campaignModelSlots as unknown as Slots,
    });
    return { campaignModel, campaignReqSnippet };
  }

  /** Operation 3. */
  @Put(':campaignModelID')
  @Auth('operator')
  @ApiOperation({
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
    await this.access.require(principal, params.tenantID);
    const updated = await this.models.updateMetaAndTags(
      params.tenantID,
      params.campaignModelID,
      { meta: body.campaignModelMeta, tags: body.campaignModelTags },
      principal.operatorID,
    );
    if (!updated) throw new AppException('CampaignModelNotFound');
    return { campaignModel: updated };
  }
}
