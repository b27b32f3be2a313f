import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsStringOfLength, ListMetaDto, PaginationQuery } from '@platform/http-common';
import { SUBSCRIBABLE_WEBHOOK_EVENT_TYPES } from '@platform/webhooks';
import { IsBoolean, ValidateBy, ValidateIf } from 'class-validator';
import { IsWebhookUrl, MAX_WEBHOOK_URL_LENGTH } from './webhook-url';

export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 500;

export class ListWebhookEndpointsQuery extends PaginationQuery(200) {}

const EVENT_TYPES_ALLOWED = `non-empty array of distinct event types, each one of: ${SUBSCRIBABLE_WEBHOOK_EVENT_TYPES.join(', ')}`;
const SUBSCRIBABLE = new Set<unknown>(SUBSCRIBABLE_WEBHOOK_EVENT_TYPES);

/** A non-empty list of subscribable event types, each at most once (`webhook.test` is sent on request only). */
function IsSubscribableEventTypes(): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isSubscribableEventTypes',
      validator: {
        validate: (value) =>
          Array.isArray(value) && value.length > 0 && value.every((type) => SUBSCRIBABLE.has(type)) && new Set(value).size === value.length,
      },
    },
    { message: EVENT_TYPES_ALLOWED },
  );
}

/** A field a request may leave out, but not send as null: absent means "as it is" (or the default). */
const whenSent = <Body>(field: keyof Body) => ValidateIf((body: Body) => body[field] !== undefined);

const URL_DESCRIPTION =
  `Where deliveries are POSTed: an absolute http(s) URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters, without user name or password; ` +
  'https only in production; a literal address must be public. A host name is resolved and checked at every delivery.';

export class CreateWebhookEndpointBody {
  @ApiProperty({ example: 'https://hooks.acme-atendimento.com.br/platform', description: URL_DESCRIPTION, maxLength: MAX_WEBHOOK_URL_LENGTH })
  @IsWebhookUrl()
  url!: string;

  @ApiProperty({ type: [String], enum: SUBSCRIBABLE_WEBHOOK_EVENT_TYPES, example: ['member.removed'], description: 'The events sent to it; each at most once' })
  @IsSubscribableEventTypes()
  eventTypes!: string[];

  // Defaults are told in the description: a schema `default` makes the typed client require the field.
  @ApiPropertyOptional({ example: 'CRM sync', maxLength: MAX_WEBHOOK_DESCRIPTION_LENGTH, description: 'Empty when left out' })
  @whenSent<CreateWebhookEndpointBody>('description')
  @IsStringOfLength(0, MAX_WEBHOOK_DESCRIPTION_LENGTH)
  description?: string;

  @ApiPropertyOptional({ description: 'Whether events are sent to it; true when left out' })
  @whenSent<CreateWebhookEndpointBody>('enabled')
  @IsBoolean()
  enabled?: boolean;
}

/** The fields sent change; the others stay as they are. */
export class UpdateWebhookEndpointBody {
  @ApiPropertyOptional({ example: 'https://hooks.acme-atendimento.com.br/platform', description: URL_DESCRIPTION, maxLength: MAX_WEBHOOK_URL_LENGTH })
  @whenSent<UpdateWebhookEndpointBody>('url')
  @IsWebhookUrl()
  url?: string;

  @ApiPropertyOptional({ type: [String], enum: SUBSCRIBABLE_WEBHOOK_EVENT_TYPES, example: ['member.removed', 'member.roleChanged'] })
  @whenSent<UpdateWebhookEndpointBody>('eventTypes')
  @IsSubscribableEventTypes()
  eventTypes?: string[];

  @ApiPropertyOptional({ example: 'CRM sync', maxLength: MAX_WEBHOOK_DESCRIPTION_LENGTH })
  @whenSent<UpdateWebhookEndpointBody>('description')
  @IsStringOfLength(0, MAX_WEBHOOK_DESCRIPTION_LENGTH)
  description?: string;

  @ApiPropertyOptional({ description: 'true re-enables an endpoint the platform disabled after failures, clearing disabledAt, disabledReason and failingSince' })
  @whenSent<UpdateWebhookEndpointBody>('enabled')
  @IsBoolean()
  enabled?: boolean;
}

/** A webhook endpoint as the API shows it: never its signing secret, which only its creation and rotations show. */
@ApiSchema({ name: 'WebhookEndpoint' })
export class WebhookEndpointDto {
  @ApiProperty({ format: 'uuid' })
  webhookEndpointID!: string;

  @ApiProperty({ example: 'https://hooks.acme-atendimento.com.br/platform' })
  url!: string;

  @ApiProperty({ example: 'CRM sync' })
  description!: string;

  @ApiProperty({ type: [String], enum: SUBSCRIBABLE_WEBHOOK_EVENT_TYPES, example: ['member.removed'] })
  eventTypes!: string[];

  @ApiProperty({ description: 'Whether events are sent to it: false after an owner disabled it or the platform did after repeated failures' })
  enabled!: boolean;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When the platform disabled it after repeated failures; null otherwise' })
  disabledAt!: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'Why the platform disabled it; null otherwise' })
  disabledReason!: string | null;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When the current run of failed deliveries began; null while they succeed' })
  failingSince!: string | null;

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'After a rotation, until when the previous signing secret still signs deliveries (beside the new one); null before any rotation',
  })
  previousSecretExpiresAt!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;
}

/** The answer of a creation and of a rotation: the endpoint with its new signing secret, shown this once. */
@ApiSchema({ name: 'WebhookEndpointWithSecret' })
export class WebhookEndpointWithSecretDto extends WebhookEndpointDto {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'The signing secret (Standard Webhooks form), shown only in this answer: store it now. Only a sealed copy is kept.',
  })
  secret!: string;
}

export class WebhookEndpointResponse {
  @ApiProperty({ type: WebhookEndpointDto })
  data!: WebhookEndpointDto;
}

export class WebhookEndpointWithSecretResponse {
  @ApiProperty({ type: WebhookEndpointWithSecretDto })
  data!: WebhookEndpointWithSecretDto;
}

@ApiSchema({ name: 'WebhookEndpointList' })
export class WebhookEndpointListResponse {
  @ApiProperty({ type: [WebhookEndpointDto] })
  data!: WebhookEndpointDto[];

  @ApiProperty({ type: ListMetaDto })
  meta!: ListMetaDto;
}
