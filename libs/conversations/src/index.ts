export { ConversationMessageDto, ConversationSessionDto, LastMessageDto, SessionDto } from './conversation.dto';
export { DELIVERY_STATUSES, deliveryStatusMove, messageStatusCodeOf, REPORTED_DELIVERY_STATUSES } from './message-status';
export type { DeliveryStatus, StatusMove } from './message-status';
export { SESSION_STATES, sessionStateOf } from './session-state';
export type { SessionState } from './session-state';
export { operatorMaySeeSession } from './session-visibility';
export type { SessionVisibilitySnapshot } from './session-visibility';
export { NOTIFICATION_COUNTS_SCHEMA } from './notification-counts';
export type { NotificationCounts } from './notification-counts';
