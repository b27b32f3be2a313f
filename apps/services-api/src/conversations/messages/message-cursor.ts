import { ValidateBy } from 'class-validator';

/**
 * The keyset cursor of a session's messages page (docs/conversations.md#reading):
 * opaque to clients, base64url of the last message's exact time
 * (microseconds, UTC) and id. The next page starts strictly after it, so
 * messages stored meanwhile never shift a page (newer ones appear on page 1).
 */
export interface MessagePosition {
  createdAt: string;
  messageID: string;
}

const DECODED = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function encodeMessageCursor(position: MessagePosition): string {
  return Buffer.from(`${position.createdAt}_${position.messageID}`, 'utf8').toString('base64url');
}

/** The position a cursor names, or undefined when it is not one this API made. */
export function decodeMessageCursor(cursor: string): MessagePosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(cursor)) return undefined;
  const match = DECODED.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || Number.isNaN(Date.parse(match[1]))) return undefined;
  return { createdAt: match[1], messageID: match[2] };
}

export function IsMessageCursor(): PropertyDecorator {
  return ValidateBy(
    { name: 'isMessageCursor', validator: { validate: (value) => typeof value === 'string' && decodeMessageCursor(value) !== undefined } },
    { message: 'a cursor from meta.nextCursor of this list' },
  );
}
