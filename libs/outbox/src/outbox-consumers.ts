/**
 * The outbox's consumers: each has its own claim state (`outbox_pending`
 * rows, written for every consumer by the append's statement) and its own
 * advisory lock. Adding one is a migration (the trigger's list and the
 * table's CHECK) and a name here.
 */
export const OUTBOX_CONSUMERS = ['webhooks', 'realtime'] as const;

/** `webhooks`: services-api's webhook dispatcher. `realtime`: the real-time gateway's relay. */
export type OutboxConsumer = (typeof OUTBOX_CONSUMERS)[number];
