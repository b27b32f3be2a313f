import { AppException, renderReceived } from '@platform/errors';

/** The request header that makes a create safe to retry (docs/idempotency.md). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Set on an answer that is the stored answer of an earlier request with the same key. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

/** 1-255 printable ASCII characters (space to tilde), like Stripe's keys; a UUID fits. */
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;

/**
 * The key a request carries, or undefined when it carries none (the header is
 * optional). A key of another shape is 400 1002 naming the header, like any
 * other invalid input.
 */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header === 'string' && KEY_FORMAT.test(header)) return header;
  throw AppException.validation([{ field: IDEMPOTENCY_KEY_HEADER, received: renderReceived(header), allowed: '1-255 printable ASCII characters' }]);
}
