import type { ServicesApiConfig } from '../config';

/** The conversation routes' limits and the notification fan-out's pace (docs/conversations.md, docs/configuration.md). */
export interface ConversationsSettings {
  /** Characters (code points) a message's content may hold (then 422 1948). */
  messageContentMaxCharacters: number;
  /** How often the fan-out loop looks for work it was not nudged about (another replica's, or left by a stop). */
  fanoutPollMs: number;
  /** Days a closed session (and its messages) is kept; 0 keeps them for good. */
  retentionDays: number;
}

export const CONVERSATIONS_SETTINGS = Symbol('CONVERSATIONS_SETTINGS');

export function conversationsSettingsOf(config: ServicesApiConfig): ConversationsSettings {
  return {
    messageContentMaxCharacters: config.MESSAGE_CONTENT_MAX_CHARACTERS,
    fanoutPollMs: config.NOTIFICATION_FANOUT_POLL_MS,
    retentionDays: config.MESSAGE_RETENTION_DAYS,
  };
}
