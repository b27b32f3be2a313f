import { MacKeys } from '@platform/keyring';

/**
 * The keys and limits of the transport's message authentication
 * (docs/transport.md, Authenticated messages). The keys keep the names of
 * their variables (TRANSPORT_SECRET, TRANSPORT_SECRET_ACCEPTED); in the
 * keyring's vocabulary they are `current` and `previous` (docs/security.md,
 * Keys and rotation).
 */
export interface TransportAuthentication {
  /** Signs every message, and verifies: the keyring's `current`. */
  secret: string;
  /**
   * Verifies only, during a rotation: the next key before the apps sign
   * with it, then the replaced one until no app signs with it any more.
   * The keyring's `previous`.
   */
  acceptedSecret?: string;
  /** How far a message's signing time may be from the receiver's clock, either way. */
  maxAgeMs: number;
}

/** Which way a message travels: a request to the listener, or a reply to the caller. */
export type MessageDirection = 'request' | 'reply';

/** Why a message was dropped unread. */
export type RefusalReason = 'unsigned' | 'bad_mac' | 'stale' | 'misrouted';

/**
 * What travels on a channel: the exact JSON text that was signed, and its
 * HMAC-SHA256. The MAC covers the text as sent, never a re-serialisation,
 * so two parties can never disagree about what was signed.
 */
export interface SealedMessage {
  signed: string;
  mac: string;
}

/** What the signed text holds around Nest's packet. */
interface SignedContent {
  direction: MessageDirection;
  /** The full channel (namespace included): a message moved to another channel or environment is refused. */
  channel: string;
  /** Milliseconds since the epoch, when it was signed: an old message replayed later is refused. */
  signedAt: number;
  packet: unknown;
}

export type Opened = { ok: true; packet: unknown } | { ok: false; reason: RefusalReason };

/**
 * Seals and opens the transport's messages. Everything Nest sends (pattern,
 * id, data, metadata with `x-actor` and `x-request-id`, or the reply with its
 * id) sits inside the signed text, with the direction, the channel and the
 * signing time.
 *
 * The MAC's key is the secret's UTF-8 bytes, not a derived key
 * (libs/keyring, 'secret-bytes'): replicas of earlier releases sign and
 * verify so, and a rolling deploy must not cut them off.
 */
export class MessageAuthenticator {
  private readonly keys: MacKeys;

  constructor(
    private readonly authentication: TransportAuthentication,
    private readonly now: () => number = Date.now,
  ) {
    this.keys = new MacKeys({ current: authentication.secret, previous: authentication.acceptedSecret }, 'secret-bytes');
  }

  seal(direction: MessageDirection, channel: string, packet: unknown): SealedMessage {
    const content: SignedContent = { direction, channel, signedAt: this.now(), packet };
    const signed = JSON.stringify(content);
    return { signed, mac: this.keys.sign(signed).toString('base64url') };
  }

  /**
   * The packet of a message received on `channel`, or why it must be dropped:
   * no seal, a MAC no key of ours made, signed for another direction or
   * channel, or signed too long ago (or in the future).
   */
  open(direction: MessageDirection, channel: string, message: unknown): Opened {
    if (!isSealed(message)) return { ok: false, reason: 'unsigned' };
    if (!this.keys.verify(message.signed, Buffer.from(message.mac, 'base64url'))) return { ok: false, reason: 'bad_mac' };
    const content = JSON.parse(message.signed) as SignedContent;
    if (content.direction !== direction || content.channel !== channel) return { ok: false, reason: 'misrouted' };
    if (typeof content.signedAt !== 'number' || Math.abs(this.now() - content.signedAt) > this.authentication.maxAgeMs) return { ok: false, reason: 'stale' };
    return { ok: true, packet: content.packet };
  }
}

function isSealed(message: unknown): message is SealedMessage {
  if (typeof message !== 'object' || message === null) return false;
  const { signed, mac } = message as Partial<SealedMessage>;
  return typeof signed === 'string' && typeof mac === 'string';
}

/** A raw channel message (JSON text) parsed, or the text itself when it is not JSON. */
export function parseChannelMessage(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
