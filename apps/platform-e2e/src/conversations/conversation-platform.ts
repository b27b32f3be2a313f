import { WebhookFixtures } from '@platform/testing';
import { startPlatform, TestPlatform } from '../support/platform';
import { TEST_WEBHOOK_SECRETS_KEY, WEBHOOK_TEST_ENV } from '../webhooks/webhook-delivery-platform';
import { WebhookReceiver } from '../webhooks/webhook-receiver';
import { WebhookSigningSecrets } from '@apps/services-api';

export interface Operator {
  operatorID: string;
  authorization: string;
}

export interface Channel {
  pluginConnectionID: string;
  /** `PluginConnection base64(id:token)` */
  authorization: string;
}

/**
 * services-api with a webhook receiver on loopback and a tenant with an
 * owner, two members and two channel plugin connections; another tenant
 * with its owner and connection.
 */
export interface ConversationPlatform {
  platform: TestPlatform;
  receiver: WebhookReceiver;
  webhooks: WebhookFixtures;
  tenantID: string;
  owner: Operator;
  member: Operator;
  otherMember: Operator;
  channel: Channel;
  otherChannel: Channel;
  otherTenantID: string;
  otherOwner: Operator;
  otherTenantChannel: Channel;
  close(): Promise<void>;
}

export async function startConversationPlatform(env: Record<string, string> = {}): Promise<ConversationPlatform> {
  const receiver = await WebhookReceiver.start();
  const platform = await startPlatform({ apps: ['services-api'], env: { ...WEBHOOK_TEST_ENV, NOTIFICATION_FANOUT_POLL_MS: '100', MESSAGE_CONTENT_MAX_CHARACTERS: '50', ...env } });
  const secrets = new WebhookSigningSecrets({ current: TEST_WEBHOOK_SECRETS_KEY });
  const webhooks = new WebhookFixtures(platform.dataSource, (endpointID, secret) => secrets.seal(endpointID, secret));
  const { fixtures } = platform;
  const operator = async (tenantID: string, role: 'owner' | 'member'): Promise<Operator> => {
    const { operatorID } = await fixtures.operator();
    await fixtures.membership(tenantID, operatorID, role);
    return { operatorID, authorization: `Bearer ${await platform.tokenFor(operatorID)}` };
  };
  const channel = async (tenantID: string): Promise<Channel> => {
    const plugin = await fixtures.plugin({ name: 'WhatsApp channel' });
    const { pluginConnectionID, authorization } = await fixtures.connection(tenantID, plugin.pluginID);
    return { pluginConnectionID, authorization };
  };
  const tenantID = await fixtures.tenant();
  const otherTenantID = await fixtures.tenant();
  return {
    platform,
    receiver,
    webhooks,
    tenantID,
    owner: await operator(tenantID, 'owner'),
    member: await operator(tenantID, 'member'),
    otherMember: await operator(tenantID, 'member'),
    channel: await channel(tenantID),
    otherChannel: await channel(tenantID),
    otherTenantID,
    otherOwner: await operator(otherTenantID, 'owner'),
    otherTenantChannel: await channel(otherTenantID),
    async close() {
      await platform.close();
      await receiver.close();
    },
  };
}

/**
 * Every conversation event type of the catalog (libs/webhooks) but `notifications.counts`:
 * an operator's totals, which move with nearly every step and have their own specs
 * (apps/platform-e2e/src/realtime/notification-counts-live.e2e-spec.ts).
 */
export const CONVERSATION_EVENT_TYPES = [
  'message.created',
  'message.statusChanged',
  'session.opened',
  'session.assigned',
  'session.transferred',
  'session.participantJoined',
  'session.closed',
  'session.requeued',
  'notifications.read',
];

/** The owner opens a WhatsApp inbox on one of the tenant's channel connections (the first by default); answers its id. */
export async function createInbox(context: ConversationPlatform, name: string, channel: Channel = context.channel): Promise<string> {
  const created = await context.platform.api.services.POST('/v1/tenants/{tenantID}/inboxes', {
    params: { path: { tenantID: context.tenantID } },
    headers: { authorization: context.owner.authorization },
    body: { name, channel: 'whatsapp', pluginConnectionID: channel.pluginConnectionID },
  });
  if (created.response.status !== 201) throw new Error(`creating inbox ${name} answered ${created.response.status}`);
  return created.data!.data.inboxID;
}
