import type { ConnectionState } from '../realtime/realtime-client';

/** Says when live updates stopped; the client reconnects by itself and the banner goes. */
export function ConnectionBanner({ state }: { state: ConnectionState }) {
  const text =
    state === 'reconnecting'
      ? 'Connection lost: reconnecting… What you see may be out of date until it is back.'
      : state === 'revoked'
        ? 'Your access to this tenant was revoked: live updates stopped.'
        : undefined;
  return (
    <div role="status" aria-live="polite" className={text ? 'banner' : 'banner banner-hidden'}>
      {text}
    </div>
  );
}
