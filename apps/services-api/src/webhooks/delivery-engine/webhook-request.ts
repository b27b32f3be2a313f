import { Webhook } from 'standardwebhooks';

/**
 * The Standard Webhooks headers of one attempt. `webhook-id` is the event's
 * id, the same on every attempt (receivers deduplicate on it); the timestamp
 * is the attempt's, so a receiver's replay window holds for retries too.
 * During a secret rotation's grace period the body is signed with both
 * secrets, space-separated as the specification allows: a receiver holding
 * either one verifies it.
 */
export function signedHeaders(eventID: string, body: string, secrets: string[], at: Date): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(eventID, at, body));
  return {
    'content-type': 'application/json',
    'user-agent': 'omnichannel-platform-webhooks/1',
    'webhook-id': eventID,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
