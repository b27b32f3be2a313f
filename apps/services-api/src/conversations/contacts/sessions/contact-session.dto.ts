import { ApiProperty } from '@nestjs/swagger';
import { SessionDto } from '@platform/conversations';
import { PaginationQuery, SessionListMetaDto, TenantParamsWith } from '@platform/http-common';

/** Operation 11's session: one class with the conversation routes and events (`@platform/conversations`). */
export { LastMessageDto, SessionDto } from '@platform/conversations';

/** docs/http-conventions.md, Paged lists: contact session pages hold 1-50 sessions. */
export const CONTACT_SESSIONS_MAX_PER_PAGE = 50;

export class ContactSessionsParams extends TenantParamsWith('contactID') {}

export class ContactSessionsQuery extends PaginationQuery(CONTACT_SESSIONS_MAX_PER_PAGE) {}

export class ContactSessionsResponse {
  @ApiProperty({ type: [SessionDto] }) data!: SessionDto[];
  @ApiProperty({ type: SessionListMetaDto }) meta!: SessionListMetaDto;
}
