import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { dataOf } from '../api/platform-api';
import { queryKeys } from '../api/query-keys';
import type { TenantContext } from './console-view';
import { ErrorMessage } from './error-message';
import { describeValue, shortTime } from './format';

type SearchKind = 'messages' | 'contacts';

/** GET .../search/messages and .../search/contacts: what the operator may see, newest first, by pages. */
export function SearchPanel({ context, onOpen }: { context: TenantContext; onOpen: (sessionID: string) => void }) {
  const { api, tenantID } = context;
  const [draft, setDraft] = useState('');
  const [kind, setKind] = useState<SearchKind>('messages');
  const [asked, setAsked] = useState<{ kind: SearchKind; q: string }>();
  const search = (event: FormEvent) => {
    event.preventDefault();
    if (draft.trim()) setAsked({ kind, q: draft.trim() });
  };
  const messages = useInfiniteQuery({
    queryKey: queryKeys.search(tenantID, 'messages', asked?.q ?? ''),
    enabled: asked?.kind === 'messages',
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      dataOf(api.services.GET('/v1/tenants/{tenantID}/search/messages', { params: { path: { tenantID }, query: { q: asked?.q ?? '', limit: '20', ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (page) => page.meta.nextCursor ?? undefined,
  });
  const contacts = useInfiniteQuery({
    queryKey: queryKeys.search(tenantID, 'contacts', asked?.q ?? ''),
    enabled: asked?.kind === 'contacts',
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      dataOf(api.services.GET('/v1/tenants/{tenantID}/search/contacts', { params: { path: { tenantID }, query: { q: asked?.q ?? '', limit: '20', ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (page) => page.meta.nextCursor ?? undefined,
  });
  const active = asked?.kind === 'contacts' ? contacts : messages;
  const foundMessages = asked?.kind === 'messages' ? (messages.data?.pages.flatMap((page) => page.data) ?? []) : [];
  const foundContacts = asked?.kind === 'contacts' ? (contacts.data?.pages.flatMap((page) => page.data) ?? []) : [];

  return (
    <section className="search" aria-labelledby="search-title">
      <h2 id="search-title">Search</h2>
      <form role="search" onSubmit={search}>
        <label htmlFor="search-q">Search for</label>
        <input id="search-q" type="search" maxLength={200} value={draft} onChange={(event) => setDraft(event.target.value)} />
        <label htmlFor="search-kind">In</label>
        <select id="search-kind" value={kind} onChange={(event) => setKind(event.target.value as SearchKind)}>
          <option value="messages">Messages</option>
          <option value="contacts">Contacts</option>
        </select>
        <button type="submit">Search</button>
      </form>
      {asked && (
        <>
          <ErrorMessage error={active.error} />
          {active.isPending && <p role="status">Searching…</p>}
          {active.isSuccess && foundMessages.length + foundContacts.length === 0 && <p role="status">Nothing found for “{asked.q}”.</p>}
          <ul className="results" aria-label="Search results">
            {foundMessages.map((message) => (
              <li key={message.messageID}>
                <button type="button" onClick={() => onOpen(message.sessionID)}>
                  <span className="preview">{describeValue(message.messageValue)}</span>
                  <span className="meta">
                    {message.messageDirection} · {shortTime(message.createdAt)}
                  </span>
                </button>
              </li>
            ))}
            {foundContacts.map((contact) => (
              <li key={contact.contactID} className="contact">
                <span className="preview">{contact.name}</span>
                <span className="meta">{contact.handles.map((handle) => `${handle.channel} ${handle.handle}`).join(', ')}</span>
              </li>
            ))}
          </ul>
          {active.hasNextPage && (
            <button type="button" className="secondary" onClick={() => void active.fetchNextPage()}>
              More results
            </button>
          )}
        </>
      )}
    </section>
  );
}
