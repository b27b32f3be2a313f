import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsStringOfLength } from '@platform/http-common';
import { IsOptional, ValidateBy, ValidateIf } from 'class-validator';
import { IsOperatorEmail } from './email-address';
import { IsAcceptablePassword } from './password-policy';

const EMAIL_EXAMPLE = 'ana@acme-atendimento.com.br';

export class EmailVerificationBody {
  @ApiProperty({ example: EMAIL_EXAMPLE, description: 'Surrounding spaces are ignored; compared lower-cased.' })
  @IsOperatorEmail()
  operatorEmail!: string;

  @ApiProperty({ example: 'Ana', minLength: 1, maxLength: 100, description: 'Greets the person in the mail.' })
  @IsStringOfLength(1, 100)
  operatorFirstname!: string;
}

@ApiSchema({ name: 'EmailVerificationResult' })
export class EmailVerificationResultDto {
  @ApiProperty({ example: 600 })
  expiresInSeconds!: number;

  @ApiProperty({ example: 60 })
  resendAfterSeconds!: number;
}

export class EmailVerificationResponse {
  @ApiProperty({ type: EmailVerificationResultDto })
  data!: EmailVerificationResultDto;
}

/** Exactly one of emailVerificationCode and invitationToken proves the address. */
function IsAbsentWhenOtherGiven(other: string): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isAbsentWhenOtherGiven',
      validator: { validate: (value, args) => value === undefined || (args?.object as Record<string, unknown>)[other] === undefined },
    },
    { message: `absent when ${other} is given` },
  );
}

export class SignUpBody {
  @ApiProperty({ example: EMAIL_EXAMPLE })
  @IsOperatorEmail()
  operatorEmail!: string;

  @ApiProperty({ example: 'Ana', minLength: 1, maxLength: 100 })
  @IsStringOfLength(1, 100)
  operatorFirstname!: string;

  @ApiPropertyOptional({ example: 'Souza', minLength: 1, maxLength: 100 })
  @IsOptional()
  @IsStringOfLength(1, 100)
  operatorLastname?: string;

  @ApiProperty({ format: 'password', minLength: 10, maxLength: 64, description: 'docs/sign-up.md, Password policy.' })
  @IsAcceptablePassword()
  password!: string;

  @ApiPropertyOptional({ example: '048213', description: 'The code of operation 8. Required unless invitationToken is given.' })
  @ValidateIf((body: SignUpBody) => body.invitationToken === undefined)
  @ValidateBy({ name: 'isSixDigits', validator: { validate: (value) => typeof value === 'string' && /^[0-9]{6}$/.test(value) } }, { message: 'six digits (or give invitationToken instead)' })
  emailVerificationCode?: string;

  @ApiPropertyOptional({ description: 'The token of a tenant invitation, instead of emailVerificationCode: the operator joins that tenant.' })
  @ValidateIf((body: SignUpBody) => body.invitationToken !== undefined)
  @IsAbsentWhenOtherGiven('emailVerificationCode')
  @IsStringOfLength(1, 200)
  invitationToken?: string;
}

@ApiSchema({ name: 'SignedUpOperatorResult' })
export class SignedUpOperatorResultDto {
  @ApiProperty({ format: 'uuid' })
  operatorID!: string;

  @ApiProperty({ example: EMAIL_EXAMPLE })
  operatorEmail!: string;

  @ApiProperty({ description: 'Operator JWT for `Authorization: Bearer <token>` (the same token sign-in gives)' })
  token!: string;
}

export class SignUpResponse {
  @ApiProperty({ type: SignedUpOperatorResultDto })
  data!: SignedUpOperatorResultDto;
}

export class InvitationBody {
  @ApiProperty({ example: EMAIL_EXAMPLE })
  @IsOperatorEmail()
  operatorEmail!: string;
}

@ApiSchema({ name: 'InvitationResult' })
export class InvitationResultDto {
  @ApiProperty({ format: 'uuid' })
  invitationID!: string;

  @ApiProperty({ format: 'uuid' })
  tenantID!: string;

  @ApiProperty({ example: EMAIL_EXAMPLE })
  operatorEmail!: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt!: string;
}

export class InvitationResponse {
  @ApiProperty({ type: InvitationResultDto })
  data!: InvitationResultDto;
}

export class AcceptInvitationBody {
  @ApiProperty({ description: 'The token of the mailed tenant invitation' })
  @IsStringOfLength(1, 200)
  invitationToken!: string;
}

@ApiSchema({ name: 'AcceptedInvitation' })
export class AcceptedInvitationDto {
  @ApiProperty({ format: 'uuid' })
  tenantID!: string;

  @ApiProperty({ enum: ['member'] })
  role!: 'member';
}

export class AcceptedInvitationResponse {
  @ApiProperty({ type: AcceptedInvitationDto })
  data!: AcceptedInvitationDto;
}
