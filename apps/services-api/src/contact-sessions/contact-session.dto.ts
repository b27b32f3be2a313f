import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { PaginationQuery, SessionListMetaDto, TenantParamsWith } from '@platform/http-common';

/** The schema that admits null and nothing else, in OpenAPI 3.0 (which has no `type: null`). */
const NULL_ONLY: SchemaObject = { type: 'object', nullable: true, enum: [null] };

/** docs/http-conventions.md, Paged lists: contact session pages hold 1-50 sessions. */
export const CONTACT_SESSIONS_MAX_PER_PAGE = 50;

export class ContactSessionsParams extends TenantParamsWith('contactID') {}

export class ContactSessionsQuery extends PaginationQuery(CONTACT_SESSIONS_MAX_PER_PAGE) {}

export class LastMessageDto {
  @ApiProperty({ enum: ['inbound', 'outbound'] }) messageDirection!: string;
  @ApiProperty({ example: 'text' }) messageKey!: string;
  @ApiProperty({ example: 2 }) messageStatus!: number;
  @ApiProperty({
    description: 'Any JSON value (a string, an object, an array, a number, null)',
    // OpenAPI 3.0 says "null" with `nullable` beside a type: here the object's.
    anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'object', nullable: true }, { type: 'array', items: {} }],
    example: 'Olá, tudo bem?',
  })
  messageValue!: unknown;
}

@ApiExtraModels(LastMessageDto)
export class SessionDto {
  @ApiProperty({ format: 'uuid' }) sessionID!: string;
  @ApiProperty({ format: 'uuid' }) tenantID!: string;
  @ApiProperty({ format: 'uuid' }) contactID!: string;
  @ApiProperty({ format: 'uuid' }) inboxID!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'null while unassigned' }) operatorID!: string | null;
  @ApiProperty({ type: [String] }) operatorParticipantsIDs!: string[];
  @ApiProperty({ example: 'whatsapp' }) sessionChannel!: string;
  @ApiProperty({ example: 'chat' }) sessionType!: string;
  @ApiProperty() sessionActive!: boolean;
  @ApiProperty() sessionListed!: boolean;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'null while the session has no message' }) sessionLastMessageID!: string | null;
  // OpenAPI 3.0's `nullable` beside a $ref (or its allOf) admits no null: the null is an alternative of its own.
  @ApiProperty({ anyOf: [{ $ref: getSchemaPath(LastMessageDto) }, NULL_ONLY], description: 'null while the session has no message' })
  lastMessage!: LastMessageDto | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The AI summary; absent when none exists' })
  sessionSummary?: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) closedAt!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) manualAt!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) queuedAt!: string | null;
}

export class ContactSessionsResponse {
  @ApiProperty({ type: [SessionDto] }) data!: SessionDto[];
  @ApiProperty({ type: SessionListMetaDto }) meta!: SessionListMetaDto;
}
