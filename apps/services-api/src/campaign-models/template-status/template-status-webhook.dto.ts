import { ApiProperty } from '@nestjs/swagger';
import { IsOneOf, IsStringOfLength } from '@platform/http-common';

/** The provider's subscription handshake: `?hub.mode=subscribe&hub.verify_token=...&hub.challenge=...`. */
export class WebhookSubscriptionQuery {
  @ApiProperty({ name: 'hub.mode', enum: ['subscribe'] })
  @IsOneOf(['subscribe'])
  'hub.mode'!: string;

  @ApiProperty({ name: 'hub.verify_token' })
  @IsStringOfLength(1, 256)
  'hub.verify_token'!: string;

  @ApiProperty({ name: 'hub.challenge' })
  @IsStringOfLength(1, 256)
  'hub.challenge'!: string;
}
