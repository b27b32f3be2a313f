import { WebhookSigningSecrets } from '@apps/services-api';
import { WebhookFixtures } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, WAIT_LIMIT_MS } from '../support/eventually';
import { TEST_WEBHOOK_SECRETS_KEY } from '../webhooks/webhook-delivery-platform';
import { verified, WebhookReceiver } from '../webhooks/webhook-receiver';
import { FaultPlatform, startFaultPlatform } from './harness/fault-platform';

/**
 * services-api killed while a receiver holds its webhook delivery
 * (docs/webhooks.md, Receiving a delivery): the attempt's lease lapses, and
 * the next instance delivers it again, with the same webhook-id. At least
 * once: never lost, possibly twice.
 */
describe('services-api killed mid-delivery of a webhook', () => {
  let platform: FaultPlatform;
  let receiver: WebhookReceiver;
  let webhooks: WebhookFixtures;
  let tenantID: string;
  let owner: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    platform = await startFaultPlatform({
      replicas: { 'core-tenants': 1, 'services-api': 1 },
      env: {
        OUTBOUND_ALLOW: '127.0.0.1',
        WEBHOOK_DELIVERY_TIMEOUT_MS: '3000',
        WEBHOOK_RETRY_DELAYS_SECONDS: '1,1,1',
        WEBHOOK_DISPATCH_POLL_MS: '100',
      },
    });
    const secrets = new WebhookSigningSecrets({ current: TEST_WEBHOOK_SECRETS_KEY });
    webhooks = new WebhookFixtures(platform.dataSource, (endpointID, secret) => secrets.seal(endpointID, secret));
    tenantID = await platform.fixtures.tenant();
    const { operatorID } = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, operatorID, 'owner');
    owner = `Bearer ${await platform.tokenFor(operatorID)}`;
  });
  afterAll(async () => {
    await platform?.close();
    await receiver?.close();
  });

  it('delivers it again from the restarted instance, with the same webhook-id, and logs the attempt that finished', async () => {
    const [replica] = platform.replicas['services-api'];
    const endpoint = await webhooks.endpoint(tenantID, { url: receiver.url('held'), eventTypes: ['member.removed'] });
    receiver.answerAlways('held', 'hang');
    const eventID = await webhooks.event(tenantID, { type: 'member.removed', orderingKey: 'member:1', data: { operatorID: tenantID, role: 'member' } });
    await eventually(() => expect(receiver.to('held')).toHaveLength(1));

    replica.kill('SIGKILL');
    await replica.exited();
    receiver.answerAlways('held', undefined);
    await replica.start();

    // Attempted again once the dead attempt's lease (the 3 s limit and 5 s) lapsed.
    await eventually(() => expect(receiver.to('held')).toHaveLength(2), WAIT_LIMIT_MS, 200);
    const [lost, delivered] = receiver.to('held');
    expect([lost.headers['webhook-id'], delivered.headers['webhook-id']]).toEqual([eventID, eventID]);
    expect(verified(endpoint.secret, delivered)).toEqual(verified(endpoint.secret, lost));
    // Not before the lease lapsed (it started at the claim, a moment before the receiver saw the request).
    expect(delivered.receivedAt - lost.receivedAt).toBeGreaterThanOrEqual(7_500);

    const api = platform.replica('services-api', replica.url);
    const log = await eventually(async () => {
      const { data } = await api.GET('/v1/tenants/{tenantID}/webhooks/endpoints/{webhookEndpointID}/deliveries', {
        params: { path: { tenantID, webhookEndpointID: endpoint.webhookEndpointID }, query: {} },
        headers: { authorization: owner },
      });
      expect(data!.data[0]?.status).toBe('succeeded');
      return data!.data;
    });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ eventID, attemptCount: 1, lastStatusCode: 200 });
  });
});
