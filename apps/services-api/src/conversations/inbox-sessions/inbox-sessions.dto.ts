import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ConversationSessionDto } from '@platform/conversations';
import { IsIntegerInRange, IsKeysetCursor, IsOneOf, isUuid } from '@platform/http-common';
import { IsOptional, ValidateBy } from 'class-validator';
import { ASSIGNEE_WORDS, QUEUE_STATES } from './inbox-session-filters';

export const MAX_INBOX_SESSIONS_PER_PAGE = 100;
export const DEFAULT_INBOX_SESSIONS_PER_PAGE = 50;

const ASSIGNEE_ALLOWED = `one of: ${ASSIGNEE_WORDS.join(', ')}, or an operator's id (uuid)`;

/** `mine`, `unassigned`, `someone`, or an operator's id. */
function IsAssigneeFilter(): PropertyDecorator {
  const words = new Set<unknown>(ASSIGNEE_WORDS);
  return ValidateBy({ name: 'isAssigneeFilter', validator: { validate: (value) => words.has(value) || isUuid(value) } }, { message: ASSIGNEE_ALLOWED });
}

export class InboxSessionsQuery {
  @ApiPropertyOptional({ enum: QUEUE_STATES, description: 'queued (no assignee), assigned, open (queued or assigned), closed; every state when absent' })
  @IsOptional()
  @IsOneOf(QUEUE_STATES)
  state?: string;

  @ApiPropertyOptional({ example: 'mine', description: `${ASSIGNEE_ALLOWED}: mine is the calling operator (a plugin connection has none: 400 1002); anyone when absent` })
  @IsOptional()
  @IsAssigneeFilter()
  assignee?: string;

  @ApiPropertyOptional({ description: `Page size, 1-${MAX_INBOX_SESSIONS_PER_PAGE}`, example: String(DEFAULT_INBOX_SESSIONS_PER_PAGE), default: DEFAULT_INBOX_SESSIONS_PER_PAGE })
  @IsOptional()
  @IsIntegerInRange(1, MAX_INBOX_SESSIONS_PER_PAGE)
  limit?: string;

  @ApiPropertyOptional({ description: "The previous page's meta.nextCursor: the sessions less recently active than that page's last" })
  @IsOptional()
  @IsKeysetCursor()
  cursor?: string;
}

export class InboxSessionPageMetaDto {
  @ApiProperty() limit!: number;
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` for the next (less recently active) page; null on the last page' }) nextCursor!: string | null;
}

export class InboxSessionsResponse {
  @ApiProperty({ type: [ConversationSessionDto], description: 'Most recently active first: last message or last change' }) data!: ConversationSessionDto[];
  @ApiProperty({ type: InboxSessionPageMetaDto }) meta!: InboxSessionPageMetaDto;
}

export class InboxSessionCountsDto {
  @ApiProperty({ description: 'Open sessions with no assignee (the queue)' }) queued!: number;
  @ApiProperty({ description: 'Open sessions with an assignee' }) assigned!: number;
  @ApiProperty({ description: 'Sessions not closed: queued plus assigned' }) open!: number;
  @ApiProperty({ description: 'Open sessions with no assignee; the same sessions as queued, under the assignee filter\'s name' }) unassigned!: number;
  @ApiProperty({ nullable: true, type: Number, description: "Open sessions assigned to the calling operator; null for a plugin connection" }) mine!: number | null;
}

export class InboxSessionCountsResponse {
  @ApiProperty({ type: InboxSessionCountsDto }) data!: InboxSessionCountsDto;
}
