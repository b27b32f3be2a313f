import { WebhookSigningSecrets } from '@apps/services-api';
import { WebhookFixtures } from '@platform/testing';
import { startPlatform, TestPlatform } from '../support/platform';
import { WebhookReceiver } from './webhook-receiver';

/** The development key the apps seal endpoints' secrets with in tests (ServicesApiConfig's default). */
export const TEST_WEBHOOK_SECRETS_KEY = 'development-only-webhook-secrets-key-not-for-production';

export interface Operator {
  operatorID: string;
  authorization: string;
}

/** services-api with short webhook delays, a receiver on loopback, and two tenants with an owner each (and a member of the first). */
export interface WebhookDeliveryPlatform {
  platform: TestPlatform;
  receiver: WebhookReceiver;
  webhooks: WebhookFixtures;
  tenantID: string;
  otherTenantID: string;
  owner: Operator;
  member: Operator;
  otherOwner: Operator;
  close(): Promise<void>;
}

/**
 * How long a delivery waits for an answer. Short, so a hanging receiver is given up on within a
 * test, but well above a loopback answer's time on a busy machine: at 1 s, a loaded CI machine
 * timed out answers the receiver had given, and a delivery meant to take one attempt took two.
 */
export const DELIVERY_TIMEOUT_MS = 3_000;

/** Short delays so retries, timeouts and the delivery engine's polls fit in a test. */
export const WEBHOOK_TEST_ENV = {
  WEBHOOK_DELIVERY_TIMEOUT_MS: String(DELIVERY_TIMEOUT_MS),
  WEBHOOK_RETRY_DELAYS_SECONDS: '1,1,1',
  WEBHOOK_DISPATCH_POLL_MS: '100',
  WEBHOOK_MAX_PENDING_PER_ENDPOINT: '20',
  // Few workers: a receiver that hangs would hold them all if attempts were not limited per endpoint.
  WEBHOOK_DELIVERY_CONCURRENCY: '2',
  JOBS_POLLING_INTERVAL_MS: '500',
};

export async function startWebhookDeliveryPlatform(env: Record<string, string> = {}): Promise<WebhookDeliveryPlatform> {
  const receiver = await WebhookReceiver.start();
  const platform = await startPlatform({ apps: ['services-api'], env: { ...WEBHOOK_TEST_ENV, ...env } });
  const secrets = new WebhookSigningSecrets({ current: TEST_WEBHOOK_SECRETS_KEY });
  const webhooks = new WebhookFixtures(platform.dataSource, (endpointID, secret) => secrets.seal(endpointID, secret));
  const { fixtures } = platform;
  const operator = async (tenantID: string, role: 'owner' | 'member'): Promise<Operator> => {
    const { operatorID } = await fixtures.operator();
    await fixtures.membership(tenantID, operatorID, role);
    return { operatorID, authorization: `Bearer ${await platform.tokenFor(operatorID)}` };
  };
  const tenantID = await fixtures.tenant();
  const otherTenantID = await fixtures.tenant();
  return {
    platform,
    receiver,
    webhooks,
    tenantID,
    otherTenantID,
    owner: await operator(tenantID, 'owner'),
    member: await operator(tenantID, 'member'),
    otherOwner: await operator(otherTenantID, 'owner'),
    async close() {
      await platform.close();
      await receiver.close();
    },
  };
}
