import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ConversationMessageDto, ConversationSessionDto, REPORTED_DELIVERY_STATUSES } from '@platform/conversations';
import { IsIntegerInRange, IsKeysetCursor, IsOneOf, IsStringOfLength, TenantParamsWith } from '@platform/http-common';
import { IsOptional, IsString, MinLength } from 'class-validator';

export const MAX_MESSAGES_PER_PAGE = 100;
export const DEFAULT_MESSAGES_PER_PAGE = 50;
/** A contact's handle on a channel (a phone number, a user id): 1-200 characters. */
export const MAX_CONTACT_HANDLE_LENGTH = 200;
/** The channel's own message id: 1-200 characters. */
export const MAX_CHANNEL_MESSAGE_ID_LENGTH = 200;

const CONTENT_DESCRIPTION = 'The text; at most MESSAGE_CONTENT_MAX_CHARACTERS characters (else 422 1948)';

export class MessageParams extends TenantParamsWith('messageID') {}

export class InboundMessageBody {
  @ApiProperty({ example: '+5511987654321', maxLength: MAX_CONTACT_HANDLE_LENGTH, description: "The contact's handle on the inbox's channel" })
  @IsStringOfLength(1, MAX_CONTACT_HANDLE_LENGTH)
  contactHandle!: string;

  @ApiPropertyOptional({ example: 'Maria Souza', maxLength: 200, description: 'Names a contact seen for the first time (else its handle); ignored afterwards' })
  @IsOptional()
  @IsStringOfLength(1, 200)
  contactName?: string;

  @ApiProperty({ example: 'wamid.HBgLNTUxMTk4NzY1NDMyMRUCABIYFjNFQjBDMEQ', maxLength: MAX_CHANNEL_MESSAGE_ID_LENGTH, description: "The channel's own id of the message: a post with an id the inbox has already answers that message and creates nothing" })
  @IsStringOfLength(1, MAX_CHANNEL_MESSAGE_ID_LENGTH)
  channelMessageID!: string;

  @ApiProperty({ example: 'Olá, meu pedido não chegou.', description: CONTENT_DESCRIPTION })
  @IsString()
  @MinLength(1)
  content!: string;
}

export class ReplyBody {
  @ApiProperty({ example: 'Olá! Vou verificar o seu pedido agora.', description: CONTENT_DESCRIPTION })
  @IsString()
  @MinLength(1)
  content!: string;
}

export class DeliveryStatusBody {
  @ApiProperty({ enum: REPORTED_DELIVERY_STATUSES, description: 'Forward only: sent, delivered, read; failed from pending or sent' })
  @IsOneOf(REPORTED_DELIVERY_STATUSES)
  deliveryStatus!: string;
}

export class SessionMessagesQuery {
  @ApiPropertyOptional({ description: `Page size, 1-${MAX_MESSAGES_PER_PAGE}`, example: String(DEFAULT_MESSAGES_PER_PAGE), default: DEFAULT_MESSAGES_PER_PAGE })
  @IsOptional()
  @IsIntegerInRange(1, MAX_MESSAGES_PER_PAGE)
  limit?: string;

  @ApiPropertyOptional({ description: "The previous page's meta.nextCursor: the messages older than that page's last" })
  @IsOptional()
  @IsKeysetCursor()
  cursor?: string;
}

export class MessageResponse {
  @ApiProperty({ type: ConversationMessageDto }) data!: ConversationMessageDto;
}

export class InboundMessageDto {
  @ApiProperty({ type: ConversationMessageDto }) message!: ConversationMessageDto;
  @ApiProperty({ type: ConversationSessionDto, description: 'The session it belongs to, as stored after it' }) session!: ConversationSessionDto;
}

export class InboundMessageResponse {
  @ApiProperty({ type: InboundMessageDto }) data!: InboundMessageDto;
}

export class MessagePageMetaDto {
  @ApiProperty() limit!: number;
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` for the next (older) page; null on the last page' }) nextCursor!: string | null;
}

export class SessionMessagesResponse {
  @ApiProperty({ type: [ConversationMessageDto], description: 'Newest first' }) data!: ConversationMessageDto[];
  @ApiProperty({ type: MessagePageMetaDto }) meta!: MessagePageMetaDto;
}
