import type { KeysetList } from '@platform/http-common';
import { ExactTimeAndID, formatExactTimeAndID, parseExactTimeAndID } from '../../exact-time-position';

/**
 * A position in an inbox's session queue: the last session's exact activity
 * time and its id. The next page starts strictly after it: a session active
 * meanwhile moves to page 1 and shifts no later page.
 */
export const INBOX_SESSION_PAGES: KeysetList<ExactTimeAndID> = { name: 'inbox-sessions', format: formatExactTimeAndID, parse: parseExactTimeAndID };
