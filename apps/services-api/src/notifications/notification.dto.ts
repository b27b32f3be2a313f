import { ApiProperty } from '@nestjs/swagger';
import { IsUuidValue } from '@platform/http-common';

export class NotificationCountsParams {
  @ApiProperty({ format: 'uuid' })
  @IsUuidValue()
  tenantID!: string;
}

/** Unread counts keyed by category: an inboxID for inbox notifications, else `mention`, `assignment` or `system`. */
export type NotificationCounts = Record<string, number>;
