import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dataOf } from '../api/platform-api';
import { queryKeys } from '../api/query-keys';
import { PRESENCE_STATUSES, type MyPresence, type PresenceStatus } from '../api/types';
import type { TenantContext } from './console-view';
import { ErrorMessage } from './error-message';

const LABELS: Record<PresenceStatus, string> = { online: 'Online', busy: 'Busy', away: 'Away', offline: 'Offline' };

/**
 * The operator's presence in the tenant (docs/presence.md): the status they
 * choose (PUT .../presence/me), and the status in effect when it differs
 * (away after idling, offline without a socket), kept current by their own
 * `operator.presenceChanged` events.
 */
export function PresenceSelector({ context }: { context: TenantContext }) {
  const { api, tenantID, operator } = context;
  const queryClient = useQueryClient();
  const key = queryKeys.presence(tenantID, operator.operatorID);
  const presence = useQuery({
    queryKey: key,
    queryFn: async (): Promise<MyPresence> => (await dataOf(api.services.GET('/v1/tenants/{tenantID}/presence/me', { params: { path: { tenantID } } }))).data,
  });
  const choose = useMutation({
    mutationFn: async (status: PresenceStatus) => (await dataOf(api.services.PUT('/v1/tenants/{tenantID}/presence/me', { params: { path: { tenantID } }, body: { status } }))).data,
    onSuccess: (answer) => queryClient.setQueryData(key, answer),
  });
  const current = presence.data;
  return (
    <div className="presence">
      <label htmlFor="presence">Presence</label>
      <select id="presence" value={current?.chosenStatus ?? ''} disabled={!current || choose.isPending} onChange={(event) => choose.mutate(event.target.value as PresenceStatus)}>
        {!current && <option value="">…</option>}
        {PRESENCE_STATUSES.map((status) => (
          <option key={status} value={status}>
            {LABELS[status]}
          </option>
        ))}
      </select>
      {current && current.status !== current.chosenStatus && <span className="meta" data-testid="presence-in-effect">now {LABELS[current.status]}</span>}
      <ErrorMessage error={presence.error ?? choose.error} />
    </div>
  );
}
