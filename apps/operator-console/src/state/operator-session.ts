/** The signed-in operator as the console needs it: who (the token's subject) and until when. */
export interface OperatorSession {
  operatorID: string;
  expiresAt: number;
}

/**
 * The operator's id from the token's `sub` claim. The console reads the
 * claim only to recognise the operator's own sessions on screen; the APIs
 * verify the token on every request.
 */
export function operatorFromToken(token: string, expiresInSeconds: number): OperatorSession {
  const payload = token.split('.')[1] ?? '';
  let subject = '';
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    subject = String((JSON.parse(json) as { sub?: unknown }).sub ?? '');
  } catch {
    subject = '';
  }
  return { operatorID: subject, expiresAt: Date.now() + expiresInSeconds * 1000 };
}
