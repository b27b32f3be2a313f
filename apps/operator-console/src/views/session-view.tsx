import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { dataOf } from '../api/platform-api';
import { queryKeys } from '../api/query-keys';
import type { ConversationSession, TenantMember } from '../api/types';
import { type MessagePage, withMessage } from '../realtime/live-cache';
import type { TenantContext } from './console-view';
import { ErrorMessage } from './error-message';
import { describeValue, shortTime } from './format';

type SessionAction = 'take' | 'join' | 'close' | 'assign' | 'transfer';

const PAGE_SIZE = '30';

/**
 * One session: its history, newest at the bottom, older pages on demand
 * (keyset: each page's `nextCursor`), the actions the operator may take,
 * and the reply box. Opening it marks the operator's notifications of it read.
 */
export function SessionView({ context, sessionID, members, onBack }: { context: TenantContext; sessionID: string; members: TenantMember[]; onBack: () => void }) {
  const { api, tenantID, operator } = context;
  const queryClient = useQueryClient();
  const path = { tenantID, sessionID };
  const session = useQuery({
    queryKey: queryKeys.session(tenantID, sessionID),
    queryFn: async () => (await dataOf(api.services.GET('/v1/tenants/{tenantID}/sessions/{sessionID}', { params: { path } }))).data,
  });
  const history = useInfiniteQuery({
    queryKey: queryKeys.messages(tenantID, sessionID),
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }): Promise<MessagePage> =>
      dataOf(api.services.GET('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', { params: { path, query: { limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (page) => page.meta.nextCursor ?? undefined,
  });

  useEffect(() => {
    // Reading a session clears the operator's unread notifications of it; the new counts arrive live.
    void api.services.POST('/v1/tenants/{tenantID}/sessions/{sessionID}/read', { params: { path: { tenantID, sessionID } } }).catch(() => undefined);
  }, [api, tenantID, sessionID]);

  const settled = (updated: ConversationSession) => {
    queryClient.setQueryData(queryKeys.session(tenantID, sessionID), updated);
    void queryClient.invalidateQueries({ queryKey: queryKeys.inbox(tenantID, updated.inboxID) });
  };
  const act = useMutation({
    mutationFn: async ({ action, operatorID }: { action: SessionAction; operatorID?: string }) => {
      const options = { params: { path } };
      switch (action) {
        case 'take':
          return (await dataOf(api.services.POST('/v1/tenants/{tenantID}/sessions/{sessionID}/take', options))).data;
        case 'join':
          return (await dataOf(api.services.POST('/v1/tenants/{tenantID}/sessions/{sessionID}/join', options))).data;
        case 'close':
          return (await dataOf(api.services.POST('/v1/tenants/{tenantID}/sessions/{sessionID}/close', options))).data;
        case 'assign':
          return (await dataOf(api.services.POST('/v1/tenants/{tenantID}/sessions/{sessionID}/assign', { ...options, body: { operatorID: operatorID ?? '' } }))).data;
        case 'transfer':
          return (await dataOf(api.services.POST('/v1/tenants/{tenantID}/sessions/{sessionID}/transfer', { ...options, body: { operatorID: operatorID ?? '' } }))).data;
      }
    },
    onSuccess: settled,
  });
  const [draft, setDraft] = useState('');
  const reply = useMutation({
    mutationFn: async (content: string) =>
      (await dataOf(api.services.POST('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', { params: { path, header: { 'Idempotency-Key': crypto.randomUUID() } }, body: { content } }))).data,
    onSuccess: (message) => {
      setDraft('');
      queryClient.setQueryData<InfiniteData<MessagePage>>(queryKeys.messages(tenantID, sessionID), (held) => held && withMessage(held, message));
    },
  });
  const send = (event: { preventDefault(): void }) => {
    event.preventDefault();
    if (draft.trim()) reply.mutate(draft);
  };

  const current = session.data;
  const nameOf = (operatorID: string | null | undefined) => {
    if (!operatorID) return 'nobody';
    if (operatorID === operator.operatorID) return 'you';
    const member = members.find((candidate) => candidate.operatorID === operatorID);
    return member ? `${member.operatorFirstname} ${member.operatorLastname ?? ''}`.trim() : 'a former member';
  };
  const messages = [...(history.data?.pages.flatMap((page) => page.data) ?? [])].reverse();

  return (
    <article className="session" aria-labelledby="session-title">
      <button type="button" className="secondary back" onClick={onBack}>
        Back to the queues
      </button>
      <h2 id="session-title">Session</h2>
      <ErrorMessage error={session.error} />
      {current && (
        <>
          <p className="session-state" data-testid="session-state">
            {current.sessionState === 'closed' ? 'Closed' : current.sessionState === 'queued' ? 'Queued' : `Assigned to ${nameOf(current.operatorID)}`}
            {' · '}
            {current.sessionChannel}
            {current.operatorParticipantsIDs.length > 0 && ` · with ${current.operatorParticipantsIDs.map(nameOf).join(', ')}`}
          </p>
          <SessionActions session={current} context={context} members={members} pending={act.isPending} onAct={(action, operatorID) => act.mutate({ action, operatorID })} />
          <ErrorMessage error={act.error} />
        </>
      )}
      <section className="history" aria-label="Messages">
        {history.hasNextPage && (
          <button type="button" className="secondary" onClick={() => void history.fetchNextPage()} disabled={history.isFetchingNextPage}>
            {history.isFetchingNextPage ? 'Loading older messages…' : 'Load older messages'}
          </button>
        )}
        <ErrorMessage error={history.error} />
        <div role="log" aria-label="Conversation" className="messages">
          <ol>
          {messages.map((message) => (
            <li key={message.messageID} className={`message ${message.messageDirection}`}>
              <span className="visually-hidden">{message.messageDirection === 'inbound' ? 'Contact:' : `${nameOf(message.operatorID)}:`}</span>
              <span className="text">{describeValue(message.messageValue)}</span>
              <span className="meta">
                {shortTime(message.createdAt)}
                {message.deliveryStatus ? ` · ${message.deliveryStatus}` : ''}
              </span>
            </li>
          ))}
          </ol>
        </div>
      </section>
      {current && current.sessionState !== 'closed' && (
        <form className="reply" onSubmit={send}>
          <label htmlFor="reply">Reply</label>
          <textarea
            id="reply"
            rows={3}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              // Ctrl+Enter (⌘+Enter) sends; Enter alone writes a new line.
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) send(event);
            }}
          />
          <ErrorMessage error={reply.error} />
          <button type="submit" disabled={reply.isPending || !draft.trim()}>
            Send
          </button>
        </form>
      )}
    </article>
  );
}

/** Take, join, assign, transfer and close, as the session's state allows; the API decides who may. */
function SessionActions({
  session,
  context,
  members,
  pending,
  onAct,
}: {
  session: ConversationSession;
  context: TenantContext;
  members: TenantMember[];
  pending: boolean;
  onAct: (action: SessionAction, operatorID?: string) => void;
}) {
  const [target, setTarget] = useState('');
  if (session.sessionState === 'closed') return null;
  const me = context.operator.operatorID;
  const mine = session.operatorID === me;
  const participant = session.operatorParticipantsIDs.includes(me);
  const handOver = session.sessionState === 'queued' ? 'assign' : 'transfer';
  const candidates = members.filter((member) => member.operatorID !== session.operatorID);
  return (
    <div className="actions" role="group" aria-label="Session actions">
      {session.sessionState === 'queued' && (
        <button type="button" disabled={pending} onClick={() => onAct('take')}>
          Take
        </button>
      )}
      {session.sessionState === 'assigned' && !mine && !participant && (
        <button type="button" disabled={pending} onClick={() => onAct('join')}>
          Join
        </button>
      )}
      {candidates.length > 0 && (
        <span className="hand-over">
          <label htmlFor="hand-over-to">{handOver === 'assign' ? 'Assign to' : 'Transfer to'}</label>
          <select id="hand-over-to" value={target} onChange={(event) => setTarget(event.target.value)}>
            <option value="">Choose an operator</option>
            {candidates.map((member) => (
              <option key={member.operatorID} value={member.operatorID}>
                {[member.operatorFirstname, member.operatorLastname].filter(Boolean).join(' ')} ({member.operatorEmail})
              </option>
            ))}
          </select>
          <button type="button" disabled={pending || !target} onClick={() => onAct(handOver, target)}>
            {handOver === 'assign' ? 'Assign' : 'Transfer'}
          </button>
        </span>
      )}
      <button type="button" className="danger" disabled={pending} onClick={() => onAct('close')}>
        Close
      </button>
    </div>
  );
}
