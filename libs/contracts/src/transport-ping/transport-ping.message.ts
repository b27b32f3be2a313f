import { IsISO8601, IsString, MaxLength } from 'class-validator';
import { defineMessage } from '../message';

/** Asks core-tenants to answer at once: proves the transport end to end and measures a round trip. */
export class TransportPingPayload {
  @IsISO8601({ strict: true })
  sentAt!: string;

  @IsString()
  @MaxLength(64)
  from!: string;
}

export interface TransportPingReply {
  app: string;
  receivedAt: string;
  /** Echo of the sender, so a test can tell its own answer. */
  from: string;
}

export const TransportPing = defineMessage<TransportPingPayload, TransportPingReply>('transport.ping', TransportPingPayload);
