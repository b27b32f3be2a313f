import { isPlainObject } from '../models/campaign-model.validators';

/** One `message_template_status_update` change of a delivery. */
export interface TemplateStatusUpdate {
  /** WhatsApp Business Account id (`entry[].id`). */
  accountID: string;
  templateID: string;
  /** Provider status (`value.event`), e.g. APPROVED. */
  event: string;
  reason: string | null;
  /** When the provider says it happened (`entry[].time`), else when we received it. */
  occurredAt: Date;
}

/**
 * The status updates of a delivery (`{object, entry: [{id, time, changes:
 * [{field, value}]}]}`); other fields and malformed changes are skipped, as
 * a delivery may carry changes this endpoint does not handle.
 */
export function statusUpdatesOf(payload: unknown, receivedAt: Date): TemplateStatusUpdate[] {
  if (!isPlainObject(payload) || !Array.isArray(payload.entry)) return [];
  const updates: TemplateStatusUpdate[] = [];
  for (const entry of payload.entry) {
    if (!isPlainObject(entry) || !Array.isArray(entry.changes) || (typeof entry.id !== 'string' && typeof entry.id !== 'number')) continue;
    const occurredAt = typeof entry.time === 'number' && Number.isFinite(entry.time) ? new Date(entry.time * 1000) : receivedAt;
    for (const change of entry.changes) {
      if (!isPlainObject(change) || change.field !== 'message_template_status_update' || !isPlainObject(change.value)) continue;
      const { event, message_template_id: templateID, reason } = change.value;
      if (typeof event !== 'string' || (typeof templateID !== 'string' && typeof templateID !== 'number')) continue;
      updates.push({
        accountID: String(entry.id),
        templateID: String(templateID),
        event,
        reason: typeof reason === 'string' && reason !== 'NONE' ? reason : null,
        occurredAt,
      });
    }
  }
  return updates;
}
