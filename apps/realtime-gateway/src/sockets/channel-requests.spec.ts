import { AppException } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { ChannelRequestFrame, restRequestOf } from './channel-requests';
import { parseClientFrame } from './frames';

const TENANT = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const INBOX = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

/** The fields of the 1002 a frame is refused with. */
const refusal = (parse: () => unknown) => {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(AppException);
    expect((error as AppException).code).toBe(1002);
    return (error as AppException).fields?.map((field) => field.field);
  }
  throw new Error('accepted');
};
const request = (frame: Record<string, unknown>) => parseClientFrame(JSON.stringify(frame)) as ChannelRequestFrame;

describe('request frames', () => {
  it('are parsed with their requestID, and become the REST call they stand for on the socket\'s tenant', () => {
    const message = { contactHandle: '+5511987654321', channelMessageID: 'wamid.1', content: 'Olá' };
    const posted = request({ type: 'post-message', requestID: 'r-1', inboxID: INBOX.toUpperCase(), message });
    expect(posted).toMatchObject({ type: 'post-message', requestID: 'r-1' });
    expect(restRequestOf(posted, TENANT)).toEqual({ method: 'POST', path: `/v1/tenants/${TENANT}/inboxes/${INBOX}/messages`, body: message });

    const reported = request({ type: 'report-delivery-status', requestID: '7c9e6679-7425-40de-944b-e07fc1f90ae7', messageID: INBOX, deliveryStatus: 'read' });
    expect(restRequestOf(reported, TENANT)).toEqual({ method: 'PUT', path: `/v1/tenants/${TENANT}/messages/${INBOX}/delivery-status`, body: { deliveryStatus: 'read' } });
  });

  it('pass the body on unchecked: what it holds is for services-api to judge', () => {
    const reported = request({ type: 'report-delivery-status', requestID: 'r', messageID: INBOX, deliveryStatus: 42 });
    expect(restRequestOf(reported, TENANT).body).toEqual({ deliveryStatus: 42 });
    const posted = request({ type: 'post-message', requestID: 'r', inboxID: INBOX, message: { content: '' } });
    expect(restRequestOf(posted, TENANT).body).toEqual({ content: '' });
  });

  it('refuse a missing or malformed requestID before anything else', () => {
    for (const requestID of [undefined, '', 'x'.repeat(65), 'a b', 'r/1', 7, { id: 1 }, '../r']) {
      expect(refusal(() => request({ type: 'post-message', requestID, inboxID: 'nope' }))).toEqual(['requestID']);
    }
  });

  it('refuse ids that are not UUIDs, which could walk the path, and a message that is not an object', () => {
    for (const inboxID of ['..', '../../sessions', `${INBOX}/x`, undefined]) {
      expect(refusal(() => restRequestOf(request({ type: 'post-message', requestID: 'r', inboxID, message: {} }), TENANT))).toEqual(['inboxID']);
    }
    expect(refusal(() => restRequestOf(request({ type: 'post-message', requestID: 'r', inboxID: '..', message: 'Olá' }), TENANT))).toEqual(['inboxID', 'message']);
    expect(refusal(() => restRequestOf(request({ type: 'post-message', requestID: 'r', inboxID: INBOX, message: [] }), TENANT))).toEqual(['message']);
    expect(refusal(() => restRequestOf(request({ type: 'report-delivery-status', requestID: 'r', messageID: '%2e%2e' }), TENANT))).toEqual(['messageID']);
  });
});
