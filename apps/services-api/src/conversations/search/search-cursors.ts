import type { KeysetList } from '@platform/http-common';
import { timedPages } from '../messages/message-cursor';
import type { ContactSearchPosition, MessageSearchPosition } from './conversation-search';

/** The positions of message search results, as their cursors carry them (a session messages cursor is refused here). */
export const MESSAGE_SEARCH_PAGES: KeysetList<MessageSearchPosition> = timedPages('message-search', 'messageID');

/** The positions of contact search results, as their cursors carry them. */
export const CONTACT_SEARCH_PAGES: KeysetList<ContactSearchPosition> = timedPages('contact-search', 'contactID');
