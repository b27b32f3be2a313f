import type { ServicesApiConfig } from '../config';

/** The conversation routes' limits and the notification fan-out's pace (docs/conversations.md, docs/configuration.md). */
export interface ConversationsSettings {
  /** Characters (code points) a message's content may hold (then 422 1948). */
  messageContentMaxCharacters: number;
  /** How often the fan-out loop looks for work it was not nudged about (another replica's, or left by a stop). */
  fanoutPollMs: number;
  /** Days a closed session (and its messages) is kept; 0 keeps them for good. */
  retentionDays: number;
  /** How often the routing loop looks for passes it was not nudged about (another replica's, a presence change, a requeue limit). */
  routingPollMs: number;
  /** How often each replica requests a pass for every tenant that may have routing work: the safety net. */
  routingSweepMs: number;
}

export const CONVERSATIONS_SETTINGS = Symbol('CONVERSATIONS_SETTINGS');

export function conversationsSettingsOf(config: ServicesApiConfig): ConversationsSettings {
  return {
    messageContentMaxCharacters: config.MESSAGE_CONTENT_MAX_CHARACTERS,
    fanoutPollMs: config.NOTIFICATION_FANOUT_POLL_MS,
    retentionDays: config.MESSAGE_RETENTION_DAYS,
    routingPollMs: config.ROUTING_POLL_MS,
    routingSweepMs: config.ROUTING_SWEEP_MS,
  };
}
