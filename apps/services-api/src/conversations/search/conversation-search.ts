import type { TenantScope } from '@platform/auth';
import type { ConversationMessageDto } from '@platform/conversations';
import type { SessionVisibility } from '../sessions/session-visibility';
import type { TimedPosition } from '../messages/message-cursor';

/** One search: the tenant, who asks (what they may see), the text, and where the page starts. */
export interface SearchQuery<Position> {
  scope: TenantScope;
  visibility: SessionVisibility;
  /** What the caller typed, trimmed: 1-SEARCH_TEXT_MAX_CHARACTERS characters. */
  text: string;
  /** The previous page's last result (exclusive); none for the first page. */
  after: Position | undefined;
  limit: number;
}

export type MessageSearchPosition = TimedPosition<'messageID'>;
export type ContactSearchPosition = TimedPosition<'contactID'>;

/** A found contact: its name and every handle it has, on any channel. */
export interface FoundContact {
  contactID: string;
  name: string;
  handles: { channel: string; handle: string }[];
  createdAt: string;
}

export interface Found<Result, Position> {
  result: Result;
  position: Position;
}

/**
 * Where a tenant's messages and contacts are searched (docs/search.md): a
 * port, so that an external engine fed from the outbox can take over from
 * PostgreSQL without a change to the routes. Whatever answers it keeps
 * three rules: every result is of `scope`'s tenant; a message is found
 * only when the caller may see its session, and a contact only when the
 * caller may see one of its sessions, or sees all of them (`SessionVisibility`,
 * the one rule of docs/conversations.md#who-may-do-what); results come newest first (time,
 * then id, descending) strictly after `after`, at most `limit` of them.
 */
export interface ConversationSearch {
  /** Text messages holding every word of the query (websearch syntax: "phrases", `or`, `-word`). */
  messages(query: SearchQuery<MessageSearchPosition>): Promise<Found<ConversationMessageDto, MessageSearchPosition>[]>;
  /** Contacts whose name or one of whose handles contains the query, case-insensitively. */
  contacts(query: SearchQuery<ContactSearchPosition>): Promise<Found<FoundContact, ContactSearchPosition>[]>;
}

/** The injection token of the one `ConversationSearch` the app uses. */
export const CONVERSATION_SEARCH = Symbol('ConversationSearch');
