import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { dataOf, type PlatformApi } from '../api/platform-api';
import { queryKeys } from '../api/query-keys';
import type { ConsoleConfig } from '../config';
import { useRealtime } from '../realtime/use-realtime';
import type { OperatorSession } from '../state/operator-session';
import { ConnectionBanner } from './connection-banner';
import { PresenceSelector } from './presence-selector';
import { QueuePanel } from './queue-panel';
import { SearchPanel } from './search-panel';
import { SessionView } from './session-view';
import type { ChosenTenant } from './tenant-picker';

export interface TenantContext {
  api: PlatformApi;
  tenantID: string;
  operator: OperatorSession;
  role: ChosenTenant['role'];
}

/** One tenant's console: its queues, the open session, search, and the live connection that keeps them current. */
export function ConsoleView(props: {
  api: PlatformApi;
  config: ConsoleConfig;
  operator: OperatorSession;
  tenant: ChosenTenant;
  onSwitchTenant: () => void;
  onSignOut: () => void;
}) {
  const { api, config, operator, tenant } = props;
  const context: TenantContext = { api, tenantID: tenant.tenantID, operator, role: tenant.role };
  const connection = useRealtime(api, config.realtimeGatewayUrl, tenant.tenantID);
  const [sessionID, setSessionID] = useState<string>();
  const members = useQuery({
    queryKey: queryKeys.members(tenant.tenantID),
    queryFn: async () => (await dataOf(api.services.GET('/v1/tenants/{tenantID}/operators', { params: { path: { tenantID: tenant.tenantID }, query: { perPage: '100' } } }))).data,
  });
  const me = members.data?.find((member) => member.operatorID === operator.operatorID);

  return (
    <div className={sessionID ? 'console has-session' : 'console'} data-connection={connection}>
      <header className="top-bar">
        <h1>Operator console</h1>
        <p className="tenant-name">
          {tenant.tenantName}
          {me && <span className="me"> · {me.operatorFirstname}</span>}
        </p>
        <PresenceSelector context={context} />
        <nav aria-label="Account" className="account">
          <button type="button" className="secondary" onClick={props.onSwitchTenant}>
            Switch tenant
          </button>
          <button type="button" className="secondary" onClick={props.onSignOut}>
            Sign out
          </button>
        </nav>
      </header>
      <ConnectionBanner state={connection} />
      <div className="columns">
        <aside className="side" aria-label="Queues and search">
          <QueuePanel context={context} openSessionID={sessionID} onOpen={setSessionID} />
          <SearchPanel context={context} onOpen={setSessionID} />
        </aside>
        <main className="main" id="session">
          {sessionID ? (
            <SessionView key={sessionID} context={context} sessionID={sessionID} members={members.data ?? []} onBack={() => setSessionID(undefined)} />
          ) : (
            <p className="placeholder">Choose a session in a queue, or search.</p>
          )}
        </main>
      </div>
    </div>
  );
}
