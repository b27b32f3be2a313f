import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { DELIVERY_STATUSES, type DeliveryStatus } from './message-status';
import { SESSION_STATES, type SessionState } from './session-state';

/**
 * The session and message shapes of the API: operation 11's `SessionDto`
 * (its contract, unchanged), the conversation routes' session (the same and
 * its state) and message, and the `session`/`message` of the conversation
 * webhook events, which carry them exactly as the REST reads show them.
 */

/** The schema that admits null and nothing else, in OpenAPI 3.0 (which has no `type: null`). */
const NULL_ONLY: SchemaObject = { type: 'object', nullable: true, enum: [null] };

/** Any JSON value, as OpenAPI 3.0 can say it ("null" is `nullable` beside a type: here the object's). */
const ANY_JSON: SchemaObject[] = [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'object', nullable: true }, { type: 'array', items: {} }];

export class LastMessageDto {
  @ApiProperty({ enum: ['inbound', 'outbound'] }) messageDirection!: string;
  @ApiProperty({ example: 'text' }) messageKey!: string;
  @ApiProperty({ example: 2 }) messageStatus!: number;
  @ApiProperty({ description: 'Any JSON value (a string, an object, an array, a number, null)', anyOf: ANY_JSON, example: 'Olá, tudo bem?' })
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

/** A session as the conversation routes and events show it: operation 11's session and its state. */
export class ConversationSessionDto extends SessionDto {
  @ApiProperty({ enum: SESSION_STATES, description: 'queued (no assignee), assigned, or closed (docs/conversations.md)' }) sessionState!: SessionState;
}

export class ConversationMessageDto {
  @ApiProperty({ format: 'uuid' }) messageID!: string;
  @ApiProperty({ format: 'uuid' }) sessionID!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'null for messages stored before inboxes owned them' }) inboxID!: string | null;
  @ApiProperty({ enum: ['inbound', 'outbound'] }) messageDirection!: string;
  @ApiProperty({ example: 'text' }) messageKey!: string;
  @ApiProperty({ example: 0, description: 'As operation 11 shows it: 0 inbound or pending, 1 sent, 2 delivered, 3 read, 4 failed' }) messageStatus!: number;
  // OpenAPI 3.0: a nullable enum lists null among its values.
  @ApiProperty({ enum: [...DELIVERY_STATUSES, null], nullable: true, type: String, description: 'Outbound messages only; null for inbound ones' })
  deliveryStatus!: DeliveryStatus | null;
  @ApiProperty({ description: 'Any JSON value; the text of a `text` message', anyOf: ANY_JSON, example: 'Olá, tudo bem?' })
  messageValue!: unknown;
  @ApiProperty({ nullable: true, type: String, description: "The channel's own id of an inbound message; null for outbound ones" })
  channelMessageID!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The operator who wrote an outbound message' }) operatorID!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}
