import { createHmac, timingSafeEqual } from 'node:crypto';
import { isPlainObject } from './campaign-model.validators';

/** Injection token of the secret the provider signs webhooks with (none: every delivery is refused). */
export const WEBHOOK_APP_SECRET = Symbol('WEBHOOK_APP_SECRET');

/**
 * The provider signs each webhook delivery with its app secret:
 * `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`.
 */
export function signatureMatches(appSecret: string | undefined, rawBody: Buffer | undefined, header: unknown): boolean {
  if (!appSecret || !rawBody || typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const presented = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** One `message_template_status_update` change of a delivery. */
export interface TemplateStatusUpdate {
  /** WhatsApp Business Account id (`entry[].id`). */
  accountId: string;
  templateId: string;
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
      const { event, message_template_id: templateId, reason } = change.value;
      if (typeof event !== 'string' || (typeof templateId !== 'string' && typeof templateId !== 'number')) continue;
      updates.push({
        accountId: String(entry.id),
        templateId: String(templateId),
        event,
        reason: typeof reason === 'string' && reason !== 'NONE' ? reason : null,
        occurredAt,
      });
    }
  }
  return updates;
}
