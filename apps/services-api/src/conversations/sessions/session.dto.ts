import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ConversationSessionDto } from '@platform/conversations';
import { IsCanonicalUuid, TenantParamsWith } from '@platform/http-common';
import { IsBoolean, IsOptional } from 'class-validator';

export class SessionParams extends TenantParamsWith('sessionID') {}

export class SessionOperatorBody {
  @ApiProperty({ format: 'uuid', description: 'A member of the tenant (else 404 1990)' })
  @IsCanonicalUuid()
  operatorID!: string;

  @ApiPropertyOptional({
    description: "Absent: false. Owners only (else 403 1004): go past the capacity of the inbox's routing policy (else 409 1949). Inboxes with the manual policy have no capacity.",
  })
  @IsOptional()
  @IsBoolean()
  override?: boolean;
}

export class SessionResponse {
  @ApiProperty({ type: ConversationSessionDto }) data!: ConversationSessionDto;
}

export class SessionReadDto {
  @ApiProperty({ description: "The operator's notifications of the session this marked read" }) markedRead!: number;
}

export class SessionReadResponse {
  @ApiProperty({ type: SessionReadDto }) data!: SessionReadDto;
}
