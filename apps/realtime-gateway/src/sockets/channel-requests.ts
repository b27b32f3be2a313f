import { AppException, FieldError, renderReceived } from '@platform/errors';
import { canonicalUuid, isUuid } from '@platform/http-common';

/**
 * The requests a plugin connection sends over its socket instead of REST
 * (docs/realtime.md, Requests over the socket). Each names the REST call it
 * stands for; the gateway forwards it to services-api, which answers it as
 * it answers that call (validation, idempotency, budgets, errors): no rule
 * of the conversation is applied here, only the frame's own shape.
 */
export const CHANNEL_REQUEST_TYPES = ['post-message', 'report-delivery-status'] as const;
export type ChannelRequestType = (typeof CHANNEL_REQUEST_TYPES)[number];

/**
 * A request frame as frames.ts parses it: its type and requestID, checked
 * there so that every later refusal can name the request it answers; the
 * rest is checked by `restRequestOf`.
 */
export interface ChannelRequestFrame {
  type: ChannelRequestType;
  requestID: string;
  frame: Record<string, unknown>;
}

/** The REST call a request stands for, relative to services-api's URL. */
export interface RestRequest {
  method: 'POST' | 'PUT';
  path: string;
  body: unknown;
}

/** A client-chosen id, echoed in the answer: letters, digits and `._:-`, 1-64 characters (a UUID fits). */
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
export const REQUEST_ID_ALLOWED = '1-64 characters: letters, digits and ._:-';

export function isChannelRequestType(type: unknown): type is ChannelRequestType {
  return (CHANNEL_REQUEST_TYPES as readonly unknown[]).includes(type);
}

const invalid = (field: string, received: unknown, allowed: string): AppException => AppException.validation([{ field, received: renderReceived(received), allowed }]);

/** The type and requestID of a request frame; 1002 on `requestID` (the answer then has none to echo). */
export function parseChannelRequestFrame(type: ChannelRequestType, frame: Record<string, unknown>): ChannelRequestFrame {
  if (typeof frame.requestID !== 'string' || !REQUEST_ID.test(frame.requestID)) throw invalid('requestID', frame.requestID, REQUEST_ID_ALLOWED);
  return { type, requestID: frame.requestID, frame };
}

/**
 * The REST call of a request frame, its tenant the socket's own. The ids
 * become path segments, so they must be UUIDs here (anything else could
 * walk the path: `..`); the body goes as sent, for services-api to check.
 */
export function restRequestOf(request: ChannelRequestFrame, tenantID: string): RestRequest {
  const { frame } = request;
  const tenant = encodeURIComponent(tenantID);
  switch (request.type) {
    case 'post-message': {
      const problems: FieldError[] = [];
      if (!isUuid(frame.inboxID)) problems.push({ field: 'inboxID', received: renderReceived(frame.inboxID), allowed: 'uuid' });
      if (typeof frame.message !== 'object' || frame.message === null || Array.isArray(frame.message)) {
        problems.push({ field: 'message', received: renderReceived(frame.message), allowed: 'an object: the body of POST .../inboxes/{inboxID}/messages' });
      }
      if (problems.length > 0) throw AppException.validation(problems);
      return { method: 'POST', path: `/v1/tenants/${tenant}/inboxes/${canonicalUuid(frame.inboxID as string)}/messages`, body: frame.message };
    }
    case 'report-delivery-status':
      if (!isUuid(frame.messageID)) throw invalid('messageID', frame.messageID, 'uuid');
      return { method: 'PUT', path: `/v1/tenants/${tenant}/messages/${canonicalUuid(frame.messageID)}/delivery-status`, body: { deliveryStatus: frame.deliveryStatus } };
  }
}
