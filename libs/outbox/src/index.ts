export { OUTBOX_CONSUMERS } from './outbox-consumers';
export type { OutboxConsumer } from './outbox-consumers';
export { OutboxRepository } from './outbox.repository';
export type { ExpiredOutboxEvents, NewOutboxEvent, NewOutboxEvents, OutboxEvent, OutboxLoss } from './outbox.repository';
