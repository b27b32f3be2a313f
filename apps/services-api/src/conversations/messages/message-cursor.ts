import type { KeysetList } from '@platform/http-common';
import { formatExactTimeAndID, parseExactTimeAndID } from '../exact-time-position';

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

/** The session messages list's positions, as its cursors carry them. */
export const MESSAGE_PAGES: KeysetList<MessagePosition> = {
  name: 'session-messages',
  format: (position) => formatExactTimeAndID({ at: position.createdAt, id: position.messageID }),
  parse(text) {
    const position = parseExactTimeAndID(text);
    return position && { createdAt: position.at, messageID: position.id };
  },
};
