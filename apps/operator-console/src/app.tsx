import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createPlatformApi } from './api/platform-api';
import type { ConsoleConfig } from './config';
import { type OperatorSession, operatorFromToken } from './state/operator-session';
import { ConsoleView } from './views/console-view';
import { SignIn } from './views/sign-in';
import { TenantPicker, type ChosenTenant } from './views/tenant-picker';

/**
 * Signed out, then choosing a tenant, then the console of that tenant. The
 * operator token is held in this component's memory only: a reload signs
 * the operator out, and no script can find it in storage.
 */
export function App({ config }: { config: ConsoleConfig }) {
  const token = useRef<string | undefined>(undefined);
  const [operator, setOperator] = useState<OperatorSession>();
  const [tenant, setTenant] = useState<ChosenTenant>();
  const [notice, setNotice] = useState<string>();
  const api = useMemo(() => createPlatformApi(config, () => token.current), [config]);
  // Live events keep what is cached current: nothing is refetched on a timer or on focus.
  const queryClient = useMemo(() => new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: 1, refetchOnWindowFocus: false } } }), []);

  const signOut = useCallback(
    (reason?: string) => {
      token.current = undefined;
      queryClient.clear();
      setTenant(undefined);
      setOperator(undefined);
      setNotice(reason);
    },
    [queryClient],
  );

  useEffect(() => {
    if (!operator) return;
    const expiry = setTimeout(() => signOut('Your session expired: sign in again.'), Math.max(0, operator.expiresAt - Date.now()));
    return () => clearTimeout(expiry);
  }, [operator, signOut]);

  const signedIn = (newToken: string, expiresInSeconds: number) => {
    token.current = newToken;
    setNotice(undefined);
    setOperator(operatorFromToken(newToken, expiresInSeconds));
  };

  return (
    <QueryClientProvider client={queryClient}>
      {!operator ? (
        <SignIn api={api} notice={notice} onSignedIn={signedIn} />
      ) : !tenant ? (
        <TenantPicker api={api} onChoose={setTenant} onSignOut={() => signOut()} />
      ) : (
        <ConsoleView
          key={tenant.tenantID}
          api={api}
          config={config}
          operator={operator}
          tenant={tenant}
          onSwitchTenant={() => setTenant(undefined)}
          onSignOut={() => signOut()}
        />
      )}
    </QueryClientProvider>
  );
}
