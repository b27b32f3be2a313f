import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsObject, ValidateNested } from 'class-validator';

export class EmailPreferencesDto {
  @ApiProperty({ example: true, description: 'A session is assigned or transferred to me by someone else, or by automatic assignment' })
  @IsBoolean()
  assigned!: boolean;

  @ApiProperty({ example: false, description: 'A contact writes in a session assigned to me' })
  @IsBoolean()
  contactWrote!: boolean;
}

/** The requesting operator's choice, in one tenant, of the events they are mailed about while offline or away. */
export class NotificationPreferencesDto {
  @ApiProperty({ type: EmailPreferencesDto, description: 'Which events are mailed (docs/notifications.md); both true until the operator chooses' })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => EmailPreferencesDto)
  email!: EmailPreferencesDto;
}

export class NotificationPreferencesResponse {
  @ApiProperty({ type: NotificationPreferencesDto }) data!: NotificationPreferencesDto;
}
