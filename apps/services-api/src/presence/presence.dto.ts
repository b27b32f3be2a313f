import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIntegerInRange, IsKeysetCursor, IsOneOf } from '@platform/http-common';
import { IsOptional } from 'class-validator';
import { PRESENCE_STATUSES, PresenceStatus } from './presence-status';

export const MAX_PRESENCE_PER_PAGE = 200;
export const DEFAULT_PRESENCE_PER_PAGE = 100;

export class SetPresenceBody {
  @ApiProperty({ enum: PRESENCE_STATUSES, description: 'The status the operator chooses; the status in effect follows from it and their sockets' })
  @IsOneOf(PRESENCE_STATUSES)
  status!: PresenceStatus;
}

export class PresenceQuery {
  @ApiPropertyOptional({ description: `Page size, 1-${MAX_PRESENCE_PER_PAGE}`, example: String(DEFAULT_PRESENCE_PER_PAGE), default: DEFAULT_PRESENCE_PER_PAGE })
  @IsOptional()
  @IsIntegerInRange(1, MAX_PRESENCE_PER_PAGE)
  limit?: string;

  @ApiPropertyOptional({ description: "The previous page's meta.nextCursor: the members after that page's last" })
  @IsOptional()
  @IsKeysetCursor()
  cursor?: string;
}

/** The requesting operator's presence in the tenant. */
export class MyPresenceDto {
  @ApiProperty({ format: 'uuid' }) operatorID!: string;
  @ApiProperty({ enum: PRESENCE_STATUSES, description: 'The status in effect (docs/presence.md#rules)' }) status!: PresenceStatus;
  @ApiProperty({ enum: PRESENCE_STATUSES, description: 'The status the operator chose (online until they choose one)' }) chosenStatus!: PresenceStatus;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When the status in effect last changed; null when the operator never had one recorded (offline)' })
  changedAt!: string | null;
}

export class MyPresenceResponse {
  @ApiProperty({ type: MyPresenceDto }) data!: MyPresenceDto;
}

/** A member of the tenant and the status in effect. */
export class MemberPresenceDto {
  @ApiProperty({ format: 'uuid' }) operatorID!: string;
  @ApiProperty({ enum: PRESENCE_STATUSES, description: 'The status in effect' }) status!: PresenceStatus;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When it last changed; null when never recorded (offline)' }) changedAt!: string | null;
}

export class PresencePageMetaDto {
  @ApiProperty() limit!: number;
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` for the next page; null on the last page' }) nextCursor!: string | null;
}

export class PresenceListResponse {
  @ApiProperty({ type: [MemberPresenceDto], description: 'By operatorID' }) data!: MemberPresenceDto[];
  @ApiProperty({ type: PresencePageMetaDto }) meta!: PresencePageMetaDto;
}
