import type { KeysetList } from '@platform/http-common';

/**
 * A position in a session's messages page (docs/conversations.md#reading):
 * the last message's exact time (microseconds, UTC) and id. The next page
 * starts strictly after it, so messages stored meanwhile never shift a page
 * (newer ones appear on page 1). Clients see it only inside a cursor
 * (`KeysetCursors`), which carries it with a MAC.
 */
export interface MessagePosition {
  createdAt: string;
  messageID: string;
}

const POSITION = /^((\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})\d{3}Z_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * Whether an exact time names a real instant PostgreSQL can hold: a day
 * that exists (no 30 February: the date read back is the one written) and a
 * year from 1 (PostgreSQL has no year 0).
 */
function isRealTime(milliseconds: string, year: string): boolean {
  const time = new Date(`${milliseconds}Z`);
  return Number(year) >= 1 && !Number.isNaN(time.getTime()) && time.toISOString() === `${milliseconds}Z`;
}

/** A position of a list ordered by an exact time and an id, newest first: the id under `idKey`. */
export type TimedPosition<IdKey extends string> = { createdAt: string } & Record<IdKey, string>;

/**
 * The positions of a list ordered newest first by an exact time and an id
 * (session messages, search results), under the list's own name: a cursor
 * of one such list is refused by another (`KeysetCursors`).
 */
export function timedPages<IdKey extends string>(name: string, idKey: IdKey): KeysetList<TimedPosition<IdKey>> {
  return {
    name,
    format: (position) => `${position.createdAt}_${position[idKey]}`,
    parse(text) {
      const match = POSITION.exec(text);
      if (!match || !isRealTime(match[1], match[2])) return undefined;
      return { createdAt: text.slice(0, text.indexOf('_')), [idKey]: match[3] } as TimedPosition<IdKey>;
    },
  };
}

/** The session messages list's positions, as its cursors carry them. */
export const MESSAGE_PAGES: KeysetList<MessagePosition> = timedPages('session-messages', 'messageID');
