import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { dataOf } from '../api/platform-api';
import { queryKeys } from '../api/query-keys';
import { type ConversationSession, type NotificationCounts, QUEUES, type QueueName } from '../api/types';
import type { TenantContext } from './console-view';
import { ErrorMessage } from './error-message';
import { describeValue, shortTime } from './format';

/**
 * The inbox's queues: queued, mine and unassigned, with their counts (GET
 * .../session-counts) and the operator's unread count of each inbox
 * (operation 14), kept current by live events.
 */
export function QueuePanel({ context, openSessionID, onOpen }: { context: TenantContext; openSessionID?: string; onOpen: (sessionID: string) => void }) {
  const { api, tenantID } = context;
  const [chosenInboxID, setInboxID] = useState<string>();
  const [queue, setQueue] = useState<QueueName>('queued');
  const inboxes = useQuery({
    queryKey: queryKeys.inboxes(tenantID),
    queryFn: async () => (await dataOf(api.services.GET('/v1/tenants/{tenantID}/inboxes', { params: { path: { tenantID }, query: { perPage: '100' } } }))).data,
  });
  const notifications = useQuery({
    queryKey: queryKeys.notifications(tenantID),
    queryFn: async (): Promise<NotificationCounts> => dataOf(api.services.GET('/v1/tenants/{tenantID}/notifications', { params: { path: { tenantID } } })),
  });
  const inboxID = chosenInboxID ?? inboxes.data?.[0]?.inboxID;
  const counts = useQuery({
    queryKey: queryKeys.counts(tenantID, inboxID ?? ''),
    enabled: inboxID !== undefined,
    queryFn: async () => (await dataOf(api.services.GET('/v1/tenants/{tenantID}/inboxes/{inboxID}/session-counts', { params: { path: { tenantID, inboxID: inboxID ?? '' } } }))).data,
  });
  const sessions = useInfiniteQuery({
    queryKey: queryKeys.queue(tenantID, inboxID ?? '', queue),
    enabled: inboxID !== undefined,
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      dataOf(
        api.services.GET('/v1/tenants/{tenantID}/inboxes/{inboxID}/sessions', {
          params: { path: { tenantID, inboxID: inboxID ?? '' }, query: { ...QUEUES[queue].query, limit: '50', ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    getNextPageParam: (page) => page.meta.nextCursor ?? undefined,
  });
  const shown: ConversationSession[] = sessions.data?.pages.flatMap((page) => page.data) ?? [];
  const unread = (id: string) => notifications.data?.[id] ?? 0;

  return (
    <section className="queues" aria-labelledby="queues-title">
      <h2 id="queues-title">Queues</h2>
      <ErrorMessage error={inboxes.error ?? notifications.error} />
      {inboxes.data?.length === 0 && <p>This tenant has no inbox yet.</p>}
      {inboxes.data && inboxes.data.length > 0 && (
        <div className="inbox-choice">
          <label htmlFor="inbox">Inbox</label>
          <select id="inbox" value={inboxID} onChange={(event) => setInboxID(event.target.value)}>
            {inboxes.data.map((inbox) => (
              <option key={inbox.inboxID} value={inbox.inboxID}>
                {inbox.name}
                {unread(inbox.inboxID) > 0 ? ` (${unread(inbox.inboxID)} unread)` : ''}
              </option>
            ))}
          </select>
          {inboxID && unread(inboxID) > 0 && (
            <span className="badge" aria-label={`${unread(inboxID)} unread in this inbox`} data-testid="inbox-unread">
              {unread(inboxID)}
            </span>
          )}
        </div>
      )}
      {inboxID && (
        <>
          <div className="queue-tabs" role="group" aria-label="Queue">
            {(Object.keys(QUEUES) as QueueName[]).map((name) => (
              <button key={name} type="button" aria-pressed={queue === name} onClick={() => setQueue(name)}>
                {QUEUES[name].label} <span className="count">{counts.data?.[name] ?? '–'}</span>
              </button>
            ))}
          </div>
          <ErrorMessage error={counts.error ?? sessions.error} />
          {sessions.isPending && <p role="status">Loading sessions…</p>}
          {sessions.isSuccess && shown.length === 0 && <p className="empty">No session in this queue.</p>}
          <ul className="session-list" aria-label={`${QUEUES[queue].label} sessions`}>
            {shown.map((session) => (
              <li key={session.sessionID}>
                <button type="button" aria-current={session.sessionID === openSessionID ? 'true' : undefined} onClick={() => onOpen(session.sessionID)}>
                  <span className="preview">{session.lastMessage ? describeValue(session.lastMessage.messageValue) : 'No message yet'}</span>
                  <span className="meta">
                    {session.sessionState} · {shortTime(session.updatedAt)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {sessions.hasNextPage && (
            <button type="button" className="secondary" onClick={() => void sessions.fetchNextPage()} disabled={sessions.isFetchingNextPage}>
              More sessions
            </button>
          )}
        </>
      )}
    </section>
  );
}
