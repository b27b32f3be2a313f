import type { ServicesApiConfig } from '../config';

/** How the status in effect follows the operators' sockets (docs/presence.md#settings). */
export interface PresenceSettings {
  /** Seconds after its socket was last seen that a lease stops counting (then offline). */
  offlineGraceSeconds: number;
  /** Seconds without client activity after which an operator who chose online is away. */
  awayAfterSeconds: number;
  /** How often the reconciler looks for statuses to move. */
  reconcilePollMs: number;
}

export const PRESENCE_SETTINGS = Symbol('PRESENCE_SETTINGS');

export function presenceSettingsOf(config: ServicesApiConfig): PresenceSettings {
  return {
    offlineGraceSeconds: config.PRESENCE_OFFLINE_GRACE_SECONDS,
    awayAfterSeconds: config.PRESENCE_AWAY_AFTER_SECONDS,
    reconcilePollMs: config.PRESENCE_RECONCILE_POLL_MS,
  };
}
