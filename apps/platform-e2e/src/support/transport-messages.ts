import { MessageAuthenticator, MessageDirection, SealedMessage } from '@platform/transport';

/**
 * Nest's packet inside a sealed transport message as it travels on Redis
 * (libs/transport, message-authentication.ts), read without checking the
 * seal: for tests that watch what an app published.
 */
export function packetOf<Packet = any>(message: string): Packet {
  return (JSON.parse((JSON.parse(message) as SealedMessage).signed) as { packet: Packet }).packet;
}

/** A message as a party holding `secret` would publish it on `channel`, signed `ageMs` ago. */
export function sealedWith(secret: string, direction: MessageDirection, channel: string, packet: unknown, ageMs = 0): string {
  const authenticator = new MessageAuthenticator({ secret, maxAgeMs: 5_000 }, () => Date.now() - ageMs);
  return JSON.stringify(authenticator.seal(direction, channel, packet));
}
