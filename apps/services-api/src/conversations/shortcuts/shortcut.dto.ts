import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SHORTCUT_SCOPES, ShortcutScope } from '@platform/database';
import { IsOneOf, IsStringOfLength, ListMetaDto, PaginationQuery } from '@platform/http-common';
import { IsOptional } from 'class-validator';

/** docs/sessions-and-shortcuts.md, Operation 7: shortcut search is 1-120 characters; pages hold 1-200 shortcuts. */
export const SHORTCUT_SEARCH_MAX_LENGTH = 120;
export const SHORTCUTS_MAX_PER_PAGE = 200;

export class ShortcutListQuery extends PaginationQuery(SHORTCUTS_MAX_PER_PAGE) {
  @ApiPropertyOptional({ enum: SHORTCUT_SCOPES, description: 'Only company-wide (`tenant-based`) or only personal (`user-based`) shortcuts; both when omitted.' })
  @IsOptional()
  @IsOneOf(SHORTCUT_SCOPES)
  scope?: ShortcutScope;

  @ApiPropertyOptional({
    description: `Case-insensitive substring of the bang or the preview, 1-${SHORTCUT_SEARCH_MAX_LENGTH} characters; % and _ are plain characters.`,
    example: 'bom dia',
  })
  @IsOptional()
  @IsStringOfLength(1, SHORTCUT_SEARCH_MAX_LENGTH)
  search?: string;
}

export class ShortcutContentDto {
  @ApiProperty() contentID!: string;
  @ApiProperty({ example: 'text' }) contentKey!: string;
  @ApiProperty({ example: 'Bom dia! Como posso ajudar?' }) contentValue!: string;
}

export class ShortcutDto {
  @ApiProperty({ format: 'uuid' }) shortcutID!: string;
  @ApiProperty({ format: 'uuid' }) tenantID!: string;
  @ApiProperty({ format: 'uuid' }) organizationID!: string;
  @ApiProperty({ format: 'uuid', description: 'Owner of a personal shortcut; author of a company-wide one.' }) operatorID!: string;
  @ApiProperty({ example: '/bomdia' }) shortcutBang!: string;
  @ApiProperty({ example: 'Bom dia! Como posso ajudar?' }) shortcutPreview!: string;
  @ApiProperty({ enum: SHORTCUT_SCOPES }) shortcutScope!: ShortcutScope;
  @ApiProperty({ type: [ShortcutContentDto] }) shortcutContents!: ShortcutContentDto[];
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class ShortcutListResponse {
  @ApiProperty({ type: [ShortcutDto] }) data!: ShortcutDto[];
  @ApiProperty({ type: ListMetaDto }) meta!: ListMetaDto;
}
