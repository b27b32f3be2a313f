import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsCanonicalUuid, IsStringOfLength, ListMetaDto, PaginationQuery, TenantParamsWith } from '@platform/http-common';
import { Matches } from 'class-validator';

/** Inbox names: 1-100 characters. */
export const MAX_INBOX_NAME_LENGTH = 100;
/** A channel's name: lower-case letters, digits and dashes, as plugins name theirs (`whatsapp`, `web-chat`). */
const CHANNEL_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;

export class InboxParams extends TenantParamsWith('inboxID') {}

export class ListInboxesQuery extends PaginationQuery(200) {}

export class CreateInboxBody {
  @ApiProperty({ example: 'WhatsApp Vendas', maxLength: MAX_INBOX_NAME_LENGTH })
  @IsStringOfLength(1, MAX_INBOX_NAME_LENGTH)
  name!: string;

  @ApiProperty({ example: 'whatsapp', pattern: CHANNEL_PATTERN.source, description: "The channel's name; contacts are known by their handle on it" })
  @Matches(CHANNEL_PATTERN, { message: 'channel name: 1-40 lower-case letters, digits or dashes, starting with a letter or digit' })
  channel!: string;

  @ApiProperty({ format: 'uuid', description: 'A live plugin connection of the tenant: the channel integration that posts to this inbox' })
  @IsCanonicalUuid()
  pluginConnectionID!: string;
}

export class RenameInboxBody {
  @ApiProperty({ example: 'WhatsApp Suporte', maxLength: MAX_INBOX_NAME_LENGTH })
  @IsStringOfLength(1, MAX_INBOX_NAME_LENGTH)
  name!: string;
}

export class InboxDto {
  @ApiProperty({ format: 'uuid' }) inboxID!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'whatsapp' }) channel!: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String, description: 'null for an inbox no connection posts to' }) pluginConnectionID!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class InboxResponse {
  @ApiProperty({ type: InboxDto }) data!: InboxDto;
}

export class InboxListResponse {
  @ApiProperty({ type: [InboxDto] }) data!: InboxDto[];
  @ApiProperty({ type: ListMetaDto }) meta!: ListMetaDto;
}
