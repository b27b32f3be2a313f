/** A command's reply: what the in-memory store answers, before it goes on the wire. */
export type Reply = string | number | boolean | null | undefined | Reply[] | { [field: string]: Reply } | StatusReply | ErrorReply;

/** A simple-string reply (`+OK`), as opposed to a bulk string. */
export class StatusReply {
  constructor(readonly status: string) {}
}

/** An error reply (`-ERR ...`). */
export class ErrorReply {
  constructor(readonly message: string) {}
}

const CRLF = '\r\n';

/**
 * Encodes a reply in RESP2, as a Redis server would: nil for Lua's false and
 * JavaScript's null, integers as integers, other numbers as bulk strings, and
 * a hash (the store answers HGETALL as an object) as a flat field/value array.
 */
export function encodeReply(reply: Reply): string {
  if (reply === null || reply === undefined || reply === false) return `$-1${CRLF}`;
  if (reply === true) return `:1${CRLF}`;
  if (reply instanceof StatusReply) return `+${reply.status}${CRLF}`;
  if (reply instanceof ErrorReply) return `-${reply.message.replace(/[\r\n]+/g, ' ')}${CRLF}`;
  if (typeof reply === 'number') return Number.isInteger(reply) ? `:${reply}${CRLF}` : encodeReply(String(reply));
  if (typeof reply === 'string') return `$${Buffer.byteLength(reply)}${CRLF}${reply}${CRLF}`;
  if (Array.isArray(reply)) return `*${reply.length}${CRLF}${reply.map(encodeReply).join('')}`;
  return encodeReply(Object.entries(reply).flat());
}
