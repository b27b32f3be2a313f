import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { WEBHOOK_DELIVERY_STATUSES } from '@platform/database';
import { IsOneOf, ListMetaDto, PaginationQuery } from '@platform/http-common';
import { WEBHOOK_EVENT_TYPE_NAMES } from '@platform/webhooks';
import { IsOptional } from 'class-validator';
import { IsCanonicalUuid } from '@platform/http-common';
import { WebhookEndpointParams } from '../webhook-endpoint-params';

export const MAX_WEBHOOK_DELIVERIES_PER_PAGE = 200;

export class WebhookDeliveryParams extends WebhookEndpointParams {
  @ApiProperty({ format: 'uuid' })
  @IsCanonicalUuid()
  webhookDeliveryID!: string;
}

export class ListWebhookDeliveriesQuery extends PaginationQuery(MAX_WEBHOOK_DELIVERIES_PER_PAGE) {
  @ApiPropertyOptional({ enum: WEBHOOK_DELIVERY_STATUSES, description: 'Only deliveries in this status' })
  @IsOptional()
  @IsOneOf(WEBHOOK_DELIVERY_STATUSES)
  status?: string;
}

export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid' })
  webhookDeliveryID!: string;

  @ApiProperty({ format: 'uuid', description: 'The event: the `webhook-id` header, the same on every attempt' })
  eventID!: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPE_NAMES })
  eventType!: string;

  @ApiProperty({ enum: WEBHOOK_DELIVERY_STATUSES, description: 'pending until an attempt succeeds (succeeded) or the retries run out (failed)' })
  status!: string;

  @ApiProperty({ description: 'Attempts made so far' })
  attemptCount!: number;

  @ApiProperty({ type: Number, nullable: true, description: "The status code of the last attempt's answer; null before any, or when it got none" })
  lastStatusCode!: number | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the next attempt is due; null once succeeded or failed' })
  nextAttemptAt!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it succeeded or failed for good' })
  completedAt!: string | null;
}

export class WebhookDeliveryAttemptDto {
  @ApiProperty({ format: 'date-time' })
  attemptedAt!: string;

  @ApiProperty({ type: Number, nullable: true, description: "The answer's status code; null when none came (timeout, unreachable)" })
  statusCode!: number | null;

  @ApiProperty({ description: 'From sending to the answer or the failure, in milliseconds' })
  durationMs!: number;

  @ApiProperty({ type: String, nullable: true, example: 'answered 500', description: "Why the attempt failed; null when it succeeded. Never the receiver's body" })
  error!: string | null;

  @ApiProperty()
  succeeded!: boolean;
}

export class WebhookDeliveryDetailDto extends WebhookDeliveryDto {
  @ApiProperty({ type: [WebhookDeliveryAttemptDto], description: 'Oldest first' })
  attempts!: WebhookDeliveryAttemptDto[];
}

@ApiSchema({ name: 'WebhookDeliveryList' })
export class WebhookDeliveryListResponse {
  @ApiProperty({ type: [WebhookDeliveryDto] })
  data!: WebhookDeliveryDto[];

  @ApiProperty({ type: ListMetaDto })
  meta!: ListMetaDto;
}

export class WebhookDeliveryResponse {
  @ApiProperty({ type: WebhookDeliveryDto })
  data!: WebhookDeliveryDto;
}

export class WebhookDeliveryDetailResponse {
  @ApiProperty({ type: WebhookDeliveryDetailDto })
  data!: WebhookDeliveryDetailDto;
}
