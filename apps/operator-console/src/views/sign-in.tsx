import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { dataOf, type PlatformApi } from '../api/platform-api';
import { ErrorMessage } from './error-message';

/** POST /v1/operators/sign-in on core-tenants: an operator token for this tab only. */
export function SignIn({ api, notice, onSignedIn }: { api: PlatformApi; notice?: string; onSignedIn: (token: string, expiresInSeconds: number) => void }) {
  const [operatorEmail, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: async () => (await dataOf(api.core.POST('/v1/operators/sign-in', { body: { operatorEmail, password } }))).data,
    onSuccess: (result) => onSignedIn(result.token, result.expiresInSeconds),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  return (
    <main className="sign-in">
      <h1>Operator console</h1>
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h2 id="sign-in-title">Sign in</h2>
        <label htmlFor="sign-in-email">Email</label>
        <input id="sign-in-email" type="email" autoComplete="username" required value={operatorEmail} onChange={(event) => setEmail(event.target.value)} />
        <label htmlFor="sign-in-password">Password</label>
        <input id="sign-in-password" type="password" autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.target.value)} />
        <ErrorMessage error={signIn.error} />
        <button type="submit" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
