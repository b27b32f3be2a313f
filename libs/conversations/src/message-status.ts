/**
 * An outbound message's delivery status and how the channel plugin
 * connection may move it (docs/conversations.md#message-status): forward
 * only along pending → sent → delivered → read, and to failed from pending
 * or sent. Reporting the status a message already has is no move (answered
 * as is, no event); every other move is refused.
 */
export const DELIVERY_STATUSES = ['pending', 'sent', 'delivered', 'read', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The reportable statuses: a message is created pending and never moved back there. */
export const REPORTED_DELIVERY_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;

const RANK: Record<Exclude<DeliveryStatus, 'failed'>, number> = { pending: 0, sent: 1, delivered: 2, read: 3 };

/**
 * `messageStatus`, the integer operation 11 shows: 0 for an inbound message
 * and a pending outbound one, then 1 sent, 2 delivered, 3 read, 4 failed.
 */
export function messageStatusCodeOf(status: DeliveryStatus | null): number {
  if (status === null) return 0;
  return status === 'failed' ? 4 : RANK[status];
}

export type StatusMove = 'move' | 'same' | 'refused';

export function deliveryStatusMove(from: DeliveryStatus, to: DeliveryStatus): StatusMove {
  if (from === to) return 'same';
  if (from === 'failed') return 'refused';
  if (to === 'failed') return from === 'pending' || from === 'sent' ? 'move' : 'refused';
  return RANK[to] > RANK[from] ? 'move' : 'refused';
}
