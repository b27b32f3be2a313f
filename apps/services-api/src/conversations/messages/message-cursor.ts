import type { KeysetList } from '@platform/http-common';
import { formatExactTimeAndID, parseExactTimeAndID } from '../../exact-time-position';

/**
 * A position in a session's messages page (docs/conversations.md#reading):
 * the last message's exact time (microseconds, UTC) and id. The next page
 * starts strictly after it, so messages stored meanwhile never shift a page
 * (newer ones appear on page 1).
 */
export interface MessagePosition {
  createdAt: string;
  messageID: string;
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
    format: (position) => formatExactTimeAndID({ at: position.createdAt, id: position[idKey] }),
    parse(text) {
      const position = parseExactTimeAndID(text);
      return position && ({ createdAt: position.at, [idKey]: position.id } as TimedPosition<IdKey>);
    },
  };
}

/** The session messages list's positions, as its cursors carry them. */
export const MESSAGE_PAGES: KeysetList<MessagePosition> = timedPages('session-messages', 'messageID');
