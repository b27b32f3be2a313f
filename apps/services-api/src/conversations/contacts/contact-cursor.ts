import type { KeysetList } from '@platform/http-common';
import { ExactTimeAndID, formatExactTimeAndID, parseExactTimeAndID } from '../../exact-time-position';

/** A position in a tenant's contacts, newest first: the last contact's exact creation time and id. */
export const CONTACT_PAGES: KeysetList<ExactTimeAndID> = { name: 'contacts', format: formatExactTimeAndID, parse: parseExactTimeAndID };
