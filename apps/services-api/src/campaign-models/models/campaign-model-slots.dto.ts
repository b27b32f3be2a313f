import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOneOf, IsStringOfLength } from '@platform/http-common';
import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';
import { IsArrayOfLength, IsIntegerNumber, IsJsonObject, IsStringMatching } from './campaign-model.validators';

/**
 * campaignModelSlots (docs/campaign-models.md, Data) with the provider's limits
 * (docs/external-providers.md, Message templates): body text up to 1024 characters, header and footer text up
 * to 60, at most 10 buttons. Variables are written `{{key}}` in the texts.
 */
export const HEADER_TYPES = ['text', 'image', 'video', 'gif', 'document', 'location'] as const;
export const BUTTON_TYPES = [
  'QUICK_REPLY',
  'URL',
  'PHONE_NUMBER',
  'COPY_CODE',
  'OTP',
  'FLOW',
  'CATALOG',
  'MPM',
  'ORDER_DETAILS',
  'VOICE_CALL',
] as const;
export const OTP_TYPES = ['COPY_CODE', 'ONE_TAP', 'ZERO_TAP'] as const;

/** A variable key is a named parameter of the provider: lowercase letters, digits, `_`, starting with a letter. */
export const VARIABLE_KEY = /^[a-z][a-z0-9_]{0,59}$/;

export class TemplateVariableDto {
  @ApiPropertyOptional({ example: 'var-1' })
  @IsOptional()
  @IsStringOfLength(1, 64)
  id?: string;

  @ApiProperty({ example: 'customer_name', description: 'Written {{customer_name}} in the text' })
  @IsStringMatching(VARIABLE_KEY, 'lowercase letters, digits and _, starting with a letter, 1-60 characters')
  key!: string;

  @ApiPropertyOptional({ example: 'text' })
  @IsOptional()
  @IsStringOfLength(1, 32)
  type?: string;

  @ApiPropertyOptional({ example: 'cliente', description: 'Value used when none is given at send time' })
  @IsOptional()
  @IsStringOfLength(0, 1024)
  fallback?: string;
}

export class TemplateBodyDto {
  @ApiPropertyOptional({ description: 'Rich content as edited in the front end' })
  @IsOptional()
  @IsStringOfLength(0, 4096)
  content?: string;

  @ApiProperty({ example: 'Olá {{customer_name}}, seu pedido {{order_id}} foi enviado.' })
  @IsStringOfLength(1, 1024)
  text!: string;

  @ApiPropertyOptional({ type: [TemplateVariableDto] })
  @IsOptional()
  @IsArrayOfLength(0, 100)
  @ValidateNested({ each: true })
  @Type(() => TemplateVariableDto)
  variables?: TemplateVariableDto[];
}

export class TemplateButtonDto {
  @ApiPropertyOptional({ example: 'Ver pedido' })
  @IsOptional()
  @IsStringOfLength(1, 25)
  text?: string;

  @ApiProperty({ enum: BUTTON_TYPES, example: 'URL' })
  @IsOneOf(BUTTON_TYPES)
  type!: string;

  @ApiPropertyOptional({ example: 'A1B2C3' })
  @IsOptional()
  @IsStringOfLength(1, 2000)
  example?: string;

  @ApiPropertyOptional({ enum: OTP_TYPES })
  @IsOptional()
  @IsOneOf(OTP_TYPES)
  otpType?: string;

  @ApiPropertyOptional({ example: '+5511999999999' })
  @IsOptional()
  @IsStringMatching(/^\+?[0-9]{5,20}$/, 'phone number: optional + and 5-20 digits')
  phoneNumber?: string;

  @ApiPropertyOptional({ example: 10 })
  @IsOptional()
  @IsIntegerNumber(1, 90)
  ttlMinutes?: number;

  @ApiPropertyOptional({ example: 'https://acme.com.br/pedidos/{{1}}' })
  @IsOptional()
  @IsStringMatching(/^https?:\/\/\S{1,2000}$/, 'http(s) URL')
  url?: string;
}

export class TemplateFooterDto {
  @ApiProperty({ example: 'Acme Atendimento' })
  @IsStringOfLength(1, 60)
  text!: string;
}

export class TemplateHeaderDto {
  @ApiPropertyOptional({ description: 'Media or location content, free-form' })
  @IsOptional()
  @IsJsonObject()
  content?: Record<string, unknown>;

  @ApiPropertyOptional()
  @IsOptional()
  @IsStringOfLength(0, 2000)
  preview?: string;

  @ApiPropertyOptional({ example: 'Pedido {{order_id}}' })
  @IsOptional()
  @IsStringOfLength(1, 60)
  text?: string;

  @ApiPropertyOptional({ type: [TemplateVariableDto] })
  @IsOptional()
  @IsArrayOfLength(0, 1)
  @ValidateNested({ each: true })
  @Type(() => TemplateVariableDto)
  variables?: TemplateVariableDto[];

  @ApiProperty({ enum: HEADER_TYPES, example: 'text' })
  @IsOneOf(HEADER_TYPES)
  type!: string;
}

export class CampaignModelSlotsDto {
  @ApiProperty({ type: TemplateBodyDto })
  @IsJsonObject()
  @ValidateNested()
  @Type(() => TemplateBodyDto)
  body!: TemplateBodyDto;

  @ApiPropertyOptional({ type: [TemplateButtonDto] })
  @IsOptional()
  @IsArrayOfLength(0, 10)
  @ValidateNested({ each: true })
  @Type(() => TemplateButtonDto)
  buttons?: TemplateButtonDto[];

  @ApiPropertyOptional({ type: TemplateFooterDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => TemplateFooterDto)
  footer?: TemplateFooterDto;

  @ApiPropertyOptional({ type: TemplateHeaderDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => TemplateHeaderDto)
  header?: TemplateHeaderDto;
}
