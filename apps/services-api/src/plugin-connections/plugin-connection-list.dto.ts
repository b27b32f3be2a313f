import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIntegerInRange, IsKeysetCursor } from '@platform/http-common';
import { IsOptional } from 'class-validator';

export const MAX_CONNECTIONS_PER_PAGE = 100;
export const DEFAULT_CONNECTIONS_PER_PAGE = 50;
/** The inboxes shown with each connection, oldest first; `inboxCount` tells how many it has. */
export const MAX_INBOXES_PER_CONNECTION = 100;

export class PluginConnectionsQuery {
  @ApiPropertyOptional({ description: `Page size, 1-${MAX_CONNECTIONS_PER_PAGE}`, example: String(DEFAULT_CONNECTIONS_PER_PAGE), default: DEFAULT_CONNECTIONS_PER_PAGE })
  @IsOptional()
  @IsIntegerInRange(1, MAX_CONNECTIONS_PER_PAGE)
  limit?: string;

  @ApiPropertyOptional({ description: "The previous page's meta.nextCursor: the connections installed after that page's last" })
  @IsOptional()
  @IsKeysetCursor()
  cursor?: string;
}

export class ConnectedPluginDto {
  @ApiProperty({ format: 'uuid' }) pluginID!: string;
  @ApiProperty({ example: 'WhatsApp channel' }) name!: string;
  @ApiProperty({ example: 'urn:plugin:whatsapp' }) urn!: string;
  @ApiProperty({ nullable: true, type: String }) iconUrl!: string | null;
}

export class ConnectionInboxDto {
  @ApiProperty({ format: 'uuid' }) inboxID!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'whatsapp' }) channel!: string;
}

export class PluginConnectionDto {
  @ApiProperty({ format: 'uuid' }) pluginConnectionID!: string;
  @ApiProperty({ enum: ['plain', 'paid', 'hosted'] }) kind!: string;
  @ApiProperty({ format: 'date-time', description: 'When it was installed' }) createdAt!: string;
  @ApiProperty({ type: ConnectedPluginDto }) plugin!: ConnectedPluginDto;
  @ApiProperty({ type: [ConnectionInboxDto], description: `Its live inboxes, oldest first, at most ${MAX_INBOXES_PER_CONNECTION}` }) inboxes!: ConnectionInboxDto[];
  @ApiProperty({ description: 'How many live inboxes it has' }) inboxCount!: number;
}

export class PluginConnectionPageMetaDto {
  @ApiProperty() limit!: number;
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` for the next page; null on the last page' }) nextCursor!: string | null;
}

export class PluginConnectionsResponse {
  @ApiProperty({ type: [PluginConnectionDto], description: 'Oldest first' }) data!: PluginConnectionDto[];
  @ApiProperty({ type: PluginConnectionPageMetaDto }) meta!: PluginConnectionPageMetaDto;
}
