import { ConversationFixtures, ScriptedTraces, TraceProviderStub } from '@platform/testing';
import { TestPlatform } from '../support/platform';

export interface InstalledProvider {
  stub: TraceProviderStub;
  traces: ScriptedTraces;
  pluginID: string;
  urn: string;
  name: string;
  iconUrl: string | undefined;
}

/** A scripted trace provider on loopback, declared by a new plugin installed (live connection) on the tenant. */
export async function installTraceProvider(
  platform: TestPlatform,
  tenantID: string,
  options: { name?: string; urn?: string; iconUrl?: string; prefix?: string } = {},
): Promise<InstalledProvider> {
  const traces = new ScriptedTraces();
  const stub = await new TraceProviderStub(traces, options.prefix ?? '/platform-traces').start();
  const name = options.name ?? 'Classificador de intenção';
  const plugin = await platform.fixtures.plugin({ name, urn: options.urn, iconUrl: options.iconUrl, traceEndpointUrl: stub.url });
  await platform.fixtures.connection(tenantID, plugin.pluginID);
  const [{ urn }]: { urn: string }[] = await platform.dataSource.query('SELECT urn FROM plugins WHERE id = $1', [plugin.pluginID]);
  return { stub, traces, pluginID: plugin.pluginID, urn, name, iconUrl: options.iconUrl };
}

/** A tenant with an owner, a member, an outsider (of another tenant) and a session with `messages` messages, oldest first. */
export async function traceScene(platform: TestPlatform, messages = 3) {
  const { fixtures, dataSource } = platform;
  const conversations = new ConversationFixtures(dataSource);
  const tenantID = await fixtures.tenant();
  const otherTenantID = await fixtures.tenant();
  const owner = await fixtures.operator();
  const member = await fixtures.operator();
  const outsider = await fixtures.operator();
  await fixtures.membership(tenantID, owner.operatorID, 'owner');
  await fixtures.membership(tenantID, member.operatorID, 'member');
  await fixtures.membership(otherTenantID, outsider.operatorID, 'owner');
  const inboxID = await conversations.inbox(tenantID);
  const contactID = await conversations.contact(tenantID);
  const sessionID = await conversations.session(tenantID, { contactID, inboxID });
  const messageIDs: string[] = [];
  const base = Date.now() - 60_000;
  for (let index = 0; index < messages; index += 1) {
    messageIDs.push(await conversations.message(tenantID, sessionID, { createdAt: new Date(base + index * 1_000), value: `mensagem ${index + 1}` }));
  }
  const otherInbox = await conversations.inbox(otherTenantID);
  const otherContact = await conversations.contact(otherTenantID);
  const otherSessionID = await conversations.session(otherTenantID, { contactID: otherContact, inboxID: otherInbox });
  return {
    conversations,
    tenantID,
    otherTenantID,
    sessionID,
    otherSessionID,
    messageIDs,
    contactID,
    inboxID,
    ownerToken: `Bearer ${await platform.tokenFor(owner.operatorID)}`,
    memberToken: `Bearer ${await platform.tokenFor(member.operatorID)}`,
    outsiderToken: `Bearer ${await platform.tokenFor(outsider.operatorID)}`,
  };
}

export const at = (base: number, offsetMs: number) => new Date(base + offsetMs).toISOString();
