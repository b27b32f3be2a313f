import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { CAMPAIGN_MODEL_STATUSES, MESSAGING_CHANNELS } from '@platform/database';
import { IsCanonicalUuid, IsOneOf, IsStringOfLength, IsUuidValue, ListMetaDto, PaginationQuery, TenantParams } from '@platform/http-common';
import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';
import { CampaignModelSlotsDto } from './campaign-model-slots.dto';
import { FILTERS_ALLOWED, IsCampaignModelFilters } from './campaign-model-filters';
import { IsJsonObject, IsStringList } from './campaign-model.validators';

/** Template categories of the provider (docs/external-providers.md, Message templates). */
export const CAMPAIGN_MODEL_TYPES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 64;

export class CampaignModelParams extends TenantParams {
  @ApiProperty({ format: 'uuid' })
  @IsCanonicalUuid()
  campaignModelID!: string;
}

/**
 * Documents campaignModelGatewayMeta's one known member; the object stays
 * free-form, so `language` is checked by the create use case.
 */
export class GatewayMetaDto {
  @ApiPropertyOptional({ example: 'pt_BR', default: 'pt_BR', description: "The template's language at the provider" })
  language?: string;
}

/**
 * Operation 2's body. Required: campaignModelChannel, campaignModelChannelID,
 * campaignModelName, campaignModelType and campaignModelSlots.body.text
 * (docs/campaign-models.md).
 */
export class CreateCampaignModelBody {
  @ApiProperty({ enum: MESSAGING_CHANNELS, example: 'whatsapp' })
  @IsOneOf(MESSAGING_CHANNELS)
  campaignModelChannel!: string;

  @ApiProperty({ format: 'uuid', description: 'A messaging channel connected on this tenant' })
  @IsUuidValue()
  campaignModelChannelID!: string;

  @ApiProperty({ example: 'Order update', description: 'Normalised to lowercase letters, digits and _; the first free name is reserved' })
  @IsStringOfLength(1, 512)
  campaignModelName!: string;

  @ApiProperty({ enum: CAMPAIGN_MODEL_TYPES })
  @IsOneOf(CAMPAIGN_MODEL_TYPES)
  campaignModelType!: string;

  @ApiPropertyOptional({ example: 'Sent when an order ships' })
  @IsOptional()
  @IsStringOfLength(0, 1024)
  campaignModelDescription?: string;

  @ApiPropertyOptional({ type: GatewayMetaDto, description: 'Provider settings; other members are kept as given' })
  @IsOptional()
  @IsJsonObject()
  campaignModelGatewayMeta?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsJsonObject()
  campaignModelMeta?: Record<string, unknown>;

  @ApiProperty({ type: CampaignModelSlotsDto })
  @IsJsonObject()
  @ValidateNested()
  @Type(() => CampaignModelSlotsDto)
  campaignModelSlots!: CampaignModelSlotsDto;

  @ApiPropertyOptional({ type: [String], example: ['pedidos'] })
  @IsOptional()
  @IsStringList(MAX_TAGS, MAX_TAG_LENGTH)
  campaignModelTags?: string[];
}

/** Operation 3's body: only these two fields may change. */
export class UpdateCampaignModelBody {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsJsonObject()
  campaignModelMeta?: Record<string, unknown>;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsStringList(MAX_TAGS, MAX_TAG_LENGTH)
  campaignModelTags?: string[];
}

export const SORT_FIELDS = ['createdAt', 'campaignModelID'] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export const SORT_DIRECTIONS = ['-1', '1'] as const;

/** Operation 4's query (docs/http-conventions.md, Paged lists). */
export class ListCampaignModelsQuery extends PaginationQuery(200) {
  @ApiPropertyOptional({ enum: SORT_FIELDS, default: 'createdAt' })
  @IsOptional()
  @IsOneOf(SORT_FIELDS)
  sortField?: SortField;

  @ApiPropertyOptional({ enum: SORT_DIRECTIONS, default: '-1', description: '-1 descending, 1 ascending' })
  @IsOptional()
  @IsOneOf(SORT_DIRECTIONS)
  sortDirection?: '-1' | '1';

  @ApiPropertyOptional({ description: 'Case-insensitive substring of the model name, 1-512 characters' })
  @IsOptional()
  @IsStringOfLength(1, 512)
  search?: string;

  @ApiPropertyOptional({ description: `JSON object: ${FILTERS_ALLOWED}`, example: '{"campaignModelStatus":["approved","evaluating"]}' })
  @IsOptional()
  @IsCampaignModelFilters()
  filters?: string;
}

@ApiSchema({ name: 'ModelVariableView' })
export class ModelVariableDto {
  @ApiProperty() key!: string;
  @ApiProperty() fallback!: string;
  @ApiProperty() required!: boolean;
  @ApiProperty() type!: string;
}

/** A campaign model as the API shows it (docs/campaign-models.md, Data). */
@ApiSchema({ name: 'CampaignModelView' })
export class CampaignModelDto {
  @ApiProperty({ format: 'uuid' }) campaignModelID!: string;
  @ApiProperty({ format: 'uuid' }) tenantID!: string;
  @ApiProperty({ example: 'whatsapp' }) campaignModelChannel!: string;
  @ApiProperty({ format: 'uuid' }) campaignModelChannelID!: string;
  @ApiProperty({ example: 'order_update' }) campaignModelName!: string;
  @ApiProperty({ enum: CAMPAIGN_MODEL_TYPES }) campaignModelType!: string;
  @ApiProperty({ nullable: true, type: String }) campaignModelDescription!: string | null;
  @ApiProperty({ enum: CAMPAIGN_MODEL_STATUSES }) campaignModelStatus!: string;
  @ApiProperty({ nullable: true, type: String }) campaignModelExternalID!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) campaignModelGatewayMeta!: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true }) campaignModelGatewayRaw!: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true }) campaignModelMeta!: Record<string, unknown>;
  @ApiProperty({ type: [String] }) campaignModelTags!: string[];
  @ApiProperty({ type: CampaignModelSlotsDto }) campaignModelSlots!: Record<string, unknown>;
  @ApiProperty({ type: [ModelVariableDto] }) modelVariables!: ModelVariableDto[];
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) approvedAt!: Date | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) evaluatingAt!: Date | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) processingAt!: Date | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) refusedAt!: Date | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: Date;
  @ApiProperty({ format: 'date-time' }) updatedAt!: Date;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) deletedAt!: Date | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) createdBy!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) updatedBy!: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Provider error code of a refusal' }) __campaignModelErrorCode!: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'Provider error message of a refusal' }) __campaignModelErrorMessage!: string | null;
}

export class CampaignModelResponse {
  @ApiProperty({ type: CampaignModelDto }) campaignModel!: CampaignModelDto;
}

export class CampaignModelWithSnippetResponse extends CampaignModelResponse {
  @ApiProperty({ description: 'JSON body that sends this template through the provider (POST /{version}/{phone-number-id}/messages)' })
  campaignReqSnippet!: string;
}

@ApiSchema({ name: 'CampaignModelList' })
export class CampaignModelListResponse {
  @ApiProperty({ type: [CampaignModelDto] }) data!: CampaignModelDto[];
  @ApiProperty({ type: ListMetaDto }) meta!: ListMetaDto;
}
