import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { ConversationMessage, ConversationSession, NotificationCounts } from '../api/types';
import { queryKeys } from '../api/query-keys';
import type { RealtimeEvent } from './realtime-client';

/** A page of GET .../sessions/{sessionID}/messages: newest first. */
export interface MessagePage {
  data: ConversationMessage[];
  meta: { limit: number; nextCursor: string | null };
}

/**
 * Applies one live event to the query cache: the session and its messages
 * as the event carries them (the payload is what the REST reads answer),
 * the unread counts as `notifications.counts` carries them, an operator's
 * presence as `operator.presenceChanged` carries it, and the inbox's
 * queues and counts marked stale, so the lists on screen are read again.
 */
export function applyEvent(queryClient: QueryClient, tenantID: string, event: RealtimeEvent): void {
  const data = event.data;
  if (event.type === 'notifications.counts') {
    queryClient.setQueryData<NotificationCounts>(queryKeys.notifications(tenantID), data.counts as NotificationCounts);
    return;
  }
  if (event.type === 'operator.presenceChanged') {
    // Every member's change reaches the socket; the console shows the operator's own (its key names them).
    const { operatorID, status, chosenStatus, changedAt } = data as { operatorID: string; status: string; chosenStatus: string; changedAt: string };
    queryClient.setQueryData(queryKeys.presence(tenantID, operatorID), { operatorID, status, chosenStatus, changedAt });
    return;
  }
  if (!event.type.startsWith('session.') && !event.type.startsWith('message.')) return;
  const session = data.session as ConversationSession | undefined;
  if (session) queryClient.setQueryData(queryKeys.session(tenantID, session.sessionID), session);
  const message = data.message as ConversationMessage | undefined;
  if (message) {
    queryClient.setQueryData<InfiniteData<MessagePage>>(queryKeys.messages(tenantID, message.sessionID), (history) => history && withMessage(history, message));
  }
  if (typeof data.inboxID === 'string') void queryClient.invalidateQueries({ queryKey: queryKeys.inbox(tenantID, data.inboxID) });
}

/** The history with the message added as the newest, or replaced where it already is (a delivery status moved). */
export function withMessage(history: InfiniteData<MessagePage>, message: ConversationMessage): InfiniteData<MessagePage> {
  const known = history.pages.some((page) => page.data.some((held) => held.messageID === message.messageID));
  if (known) {
    return { ...history, pages: history.pages.map((page) => ({ ...page, data: page.data.map((held) => (held.messageID === message.messageID ? message : held)) })) };
  }
  const [newest, ...older] = history.pages;
  if (!newest) return history;
  return { ...history, pages: [{ ...newest, data: [message, ...newest.data] }, ...older] };
}
