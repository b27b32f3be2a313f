import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ConversationMessageDto } from '@platform/conversations';
import { IsIntegerInRange, IsKeysetCursor, TenantParams } from '@platform/http-common';
import { IsOptional, ValidateBy } from 'class-validator';

/** A search's text: 1-200 characters, not only spaces (docs/search.md, Limits). */
export const SEARCH_TEXT_MAX_CHARACTERS = 200;
export const MAX_SEARCH_RESULTS_PER_PAGE = 50;
export const DEFAULT_SEARCH_RESULTS_PER_PAGE = 20;

const SEARCH_TEXT_ALLOWED = `string of 1-${SEARCH_TEXT_MAX_CHARACTERS} characters, not only spaces`;

/** Characters counted as code points, as every length rule of the API counts them. */
function isSearchText(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const length = [...value].length;
  return length >= 1 && length <= SEARCH_TEXT_MAX_CHARACTERS && value.trim() !== '';
}

export class SearchParams extends TenantParams {}

export class SearchQueryParams {
  @ApiProperty({ description: `What to look for: ${SEARCH_TEXT_ALLOWED} (docs/search.md for the syntax)`, example: 'pedido atrasado', minLength: 1, maxLength: SEARCH_TEXT_MAX_CHARACTERS })
  @ValidateBy({ name: 'isSearchText', validator: { validate: isSearchText } }, { message: SEARCH_TEXT_ALLOWED })
  q!: string;

  @ApiPropertyOptional({ description: `Page size, 1-${MAX_SEARCH_RESULTS_PER_PAGE}`, example: String(DEFAULT_SEARCH_RESULTS_PER_PAGE), default: DEFAULT_SEARCH_RESULTS_PER_PAGE })
  @IsOptional()
  @IsIntegerInRange(1, MAX_SEARCH_RESULTS_PER_PAGE)
  limit?: string;

  @ApiPropertyOptional({ description: "The previous page's meta.nextCursor, with the same q: the results older than that page's last" })
  @IsOptional()
  @IsKeysetCursor()
  cursor?: string;
}

export class SearchPageMetaDto {
  @ApiProperty() limit!: number;
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor`, with the same q, for the next (older) page; null on the last page' }) nextCursor!: string | null;
}

export class MessageSearchResponse {
  @ApiProperty({ type: [ConversationMessageDto], description: 'Newest first' }) data!: ConversationMessageDto[];
  @ApiProperty({ type: SearchPageMetaDto }) meta!: SearchPageMetaDto;
}

export class ContactHandleDto {
  @ApiProperty({ example: 'whatsapp' }) channel!: string;
  @ApiProperty({ example: '+5511987654321' }) handle!: string;
}

export class FoundContactDto {
  @ApiProperty({ format: 'uuid' }) contactID!: string;
  @ApiProperty({ example: 'Maria Souza' }) name!: string;
  @ApiProperty({ type: [ContactHandleDto], description: "The contact's handles on every channel" }) handles!: ContactHandleDto[];
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class ContactSearchResponse {
  @ApiProperty({ type: [FoundContactDto], description: 'Newest first' }) data!: FoundContactDto[];
  @ApiProperty({ type: SearchPageMetaDto }) meta!: SearchPageMetaDto;
}
