import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { AUDIT_ACTION_NAMES } from '@platform/audit';
import { AUDIT_ACTOR_KINDS } from '@platform/database';
import { IsCanonicalUuid, IsDateTimeValue, IsOneOf, ListMetaDto, PaginationQuery } from '@platform/http-common';
import { IsOptional } from 'class-validator';

/** Audit events are paged like the other lists, up to 200 a page. */
export const MAX_AUDIT_EVENTS_PER_PAGE = 200;

export class ListAuditEventsQuery extends PaginationQuery(MAX_AUDIT_EVENTS_PER_PAGE) {
  @ApiPropertyOptional({ enum: AUDIT_ACTION_NAMES, description: 'Only events of this action' })
  @IsOptional()
  @IsOneOf(AUDIT_ACTION_NAMES)
  action?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only events of this actor (an operator, plugin or plugin connection id)' })
  @IsOptional()
  @IsCanonicalUuid()
  actorID?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-01T00:00:00Z', description: 'Only events at or after this instant' })
  @IsOptional()
  @IsDateTimeValue()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-12-01T00:00:00Z', description: 'Only events before this instant' })
  @IsOptional()
  @IsDateTimeValue()
  to?: string;
}

export class AuditActorDto {
  @ApiProperty({ enum: AUDIT_ACTOR_KINDS })
  kind!: string;

  @ApiProperty({ format: 'uuid' })
  id!: string;
}

export class AuditTargetDto {
  @ApiProperty({ example: 'pluginConnection', description: 'What the action acted on' })
  kind!: string;

  @ApiProperty({ example: '3b241101-e2bb-4255-8caf-4136c566a962', description: 'Its id (a hostname for a helpdesk domain)' })
  id!: string;
}

export class AuditEventDto {
  @ApiProperty({ format: 'uuid' })
  auditEventID!: string;

  @ApiProperty({ format: 'uuid' })
  tenantID!: string;

  @ApiProperty({ enum: AUDIT_ACTION_NAMES })
  action!: string;

  @ApiProperty({ type: AuditActorDto })
  actor!: AuditActorDto;

  @ApiProperty({ type: AuditTargetDto })
  target!: AuditTargetDto;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { pluginID: '7c9e6679-7425-40de-944b-e07fc1f90ae7', kind: 'paid', billing: 'cancellation scheduled' },
    description: 'What changed, per action (docs/audit-log.md); never a secret',
  })
  summary!: Record<string, unknown>;

  @ApiProperty({ type: String, nullable: true, description: 'X-Request-Id of the request that acted' })
  requestID!: string | null;

  @ApiProperty({ format: 'date-time' })
  occurredAt!: string;
}

@ApiSchema({ name: 'AuditEventList' })
export class AuditEventListResponse {
  @ApiProperty({ type: [AuditEventDto] })
  data!: AuditEventDto[];

  @ApiProperty({ type: ListMetaDto })
  meta!: ListMetaDto;
}
