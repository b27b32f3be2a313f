import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIntegerInRange, IsKeysetCursor, IsStringOfLength } from '@platform/http-common';
import { IsOptional } from 'class-validator';
import { MAX_CONTACT_HANDLE_LENGTH } from '../messages/message.dto';

export const MAX_CONTACTS_PER_PAGE = 100;
export const DEFAULT_CONTACTS_PER_PAGE = 50;

export class ContactsQuery {
  @ApiPropertyOptional({ example: '+5511987654321', maxLength: MAX_CONTACT_HANDLE_LENGTH, description: "Only the contacts with this handle on a channel (exact match: a phone number as the channel sends it)" })
  @IsOptional()
  @IsStringOfLength(1, MAX_CONTACT_HANDLE_LENGTH)
  handle?: string;

  @ApiPropertyOptional({ description: `Page size, 1-${MAX_CONTACTS_PER_PAGE}`, example: String(DEFAULT_CONTACTS_PER_PAGE), default: DEFAULT_CONTACTS_PER_PAGE })
  @IsOptional()
  @IsIntegerInRange(1, MAX_CONTACTS_PER_PAGE)
  limit?: string;

  @ApiPropertyOptional({ description: "The previous page's meta.nextCursor: the contacts older than that page's last" })
  @IsOptional()
  @IsKeysetCursor()
  cursor?: string;
}

export class ContactHandleDto {
  @ApiProperty({ example: 'whatsapp' }) channel!: string;
  @ApiProperty({ example: '+5511987654321' }) handle!: string;
}

export class ContactDto {
  @ApiProperty({ format: 'uuid' }) contactID!: string;
  @ApiProperty({ example: 'Maria Souza' }) name!: string;
  @ApiProperty({ type: [ContactHandleDto], description: 'Its handles, one per channel at most, by channel' }) handles!: ContactHandleDto[];
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class ContactPageMetaDto {
  @ApiProperty() limit!: number;
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` for the next (older) page; null on the last page' }) nextCursor!: string | null;
}

export class ContactsResponse {
  @ApiProperty({ type: [ContactDto], description: 'Newest first' }) data!: ContactDto[];
  @ApiProperty({ type: ContactPageMetaDto }) meta!: ContactPageMetaDto;
}
