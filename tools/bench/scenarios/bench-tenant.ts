import { CampaignFixtures, ConversationFixtures, FixtureBuilder, OperatorFixture, PluginFixture } from '@platform/testing';
import { DataSource } from 'typeorm';

/** The tenant the CPU and memory scenarios load, as seeded. */
export interface BenchTenant {
  tenantID: string;
  owner: OperatorFixture;
  campaignModelID: string;
  channelID: string;
  inboxID: string;
  contactID: string;
  /** The helpdesk plugin, connected to the tenant. */
  helpdesk: PluginFixture;
  helpCenterID: string;
}

/**
 * One tenant whose owner is a member of four more (the tenants list), with
 * `rows` campaign models, shortcuts and sessions of one contact, each with a
 * message (so each list has full pages), campaigns in each status, ten unread
 * notifications, and the helpdesk plugin connected with its help center.
 * With `summaries`, each session has its summary too.
 */
export async function seedBenchTenant(dataSource: DataSource, rows: number, options: { summaries: boolean }): Promise<BenchTenant> {
  const fixtures = new FixtureBuilder(dataSource);
  const campaigns = new CampaignFixtures(dataSource);
  const conversations = new ConversationFixtures(dataSource);
  const tenantID = await fixtures.tenant('Bench Atendimento');
  const owner = await fixtures.operator();
  await fixtures.membership(tenantID, owner.operatorID, 'owner');
  for (let index = 1; index < 5; index += 1) await fixtures.membership(await fixtures.tenant(`Bench tenant ${index}`), owner.operatorID, 'member');

  const channel = await campaigns.messagingChannel(tenantID);
  await campaigns.campaignModels(tenantID, channel.channelID, rows, { prefix: 'order_update' });
  const [{ id: campaignModelID }]: { id: string }[] = await dataSource.query('SELECT id FROM campaign_models WHERE tenant_id = $1 LIMIT 1', [tenantID]);
  for (const status of ['draft', 'scheduled', 'running', 'completed'] as const) await campaigns.campaign(tenantID, status, campaignModelID);

  const inboxID = await conversations.inbox(tenantID);
  const contactID = await conversations.contact(tenantID);
  for (let index = 0; index < rows; index += 1) {
    await conversations.shortcut(tenantID, { scope: index % 2 ? 'tenant-based' : 'user-based', operatorID: owner.operatorID, bang: `/resposta${index}`, preview: `Resposta pronta ${index}` });
    const sessionID = await conversations.session(tenantID, { contactID, inboxID, operatorID: owner.operatorID, createdAt: new Date(Date.now() - index * 60_000) });
    await conversations.message(tenantID, sessionID, { value: `Mensagem ${index}` });
    if (options.summaries) await conversations.summary(tenantID, sessionID, { text: 'Cliente perguntou sobre a entrega.', sentiment: 'neutral' });
    if (index < 10) await conversations.notification(tenantID, { operatorID: owner.operatorID, ...(index % 2 ? { category: 'inbox', inboxID } : { category: 'mention' }) });
  }

  const helpdesk = await fixtures.pluginWithUrn('urn:plugin:helpdesk', 'Central de Ajuda');
  await fixtures.connection(tenantID, helpdesk.pluginID);
  const [{ id: helpCenterID }]: { id: string }[] = await dataSource.query('INSERT INTO help_centers (tenant_id) VALUES ($1) RETURNING id', [tenantID]);
  return { tenantID, owner, campaignModelID, channelID: channel.channelID, inboxID, contactID, helpdesk, helpCenterID };
}
