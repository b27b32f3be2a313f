import { ApiProperty } from '@nestjs/swagger';
import { ConversationSessionDto } from '@platform/conversations';
import { IsCanonicalUuid, TenantParamsWith } from '@platform/http-common';

export class SessionParams extends TenantParamsWith('sessionID') {}

export class SessionOperatorBody {
  @ApiProperty({ format: 'uuid', description: 'A member of the tenant (else 404 1990)' })
  @IsCanonicalUuid()
  operatorID!: string;
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
