import { useQuery } from '@tanstack/react-query';
import { dataOf, type PlatformApi } from '../api/platform-api';
import { ErrorMessage } from './error-message';

export interface ChosenTenant {
  tenantID: string;
  tenantName: string;
  role: 'owner' | 'member';
}

/** GET /tenants (operation 15): the tenants the operator is a member of. */
export function TenantPicker({ api, onChoose, onSignOut }: { api: PlatformApi; onChoose: (tenant: ChosenTenant) => void; onSignOut: () => void }) {
  const tenants = useQuery({ queryKey: ['tenants'], queryFn: async () => (await dataOf(api.core.GET('/tenants'))).data as ChosenTenant[] });
  return (
    <main className="tenant-picker">
      <h1>Choose a tenant</h1>
      {tenants.isPending && <p role="status">Loading your tenants…</p>}
      <ErrorMessage error={tenants.error} />
      {tenants.data?.length === 0 && <p>You are not a member of any tenant.</p>}
      <ul className="tenant-list">
        {tenants.data?.map((tenant) => (
          <li key={tenant.tenantID}>
            <button type="button" onClick={() => onChoose(tenant)}>
              {tenant.tenantName} <span className="role">({tenant.role})</span>
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="secondary" onClick={onSignOut}>
        Sign out
      </button>
    </main>
  );
}
