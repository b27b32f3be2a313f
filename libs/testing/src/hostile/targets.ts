import { ConversationFixtures } from '../conversation-fixtures';
import { FixtureBuilder, Queryable } from '../fixtures';
import { AppRole } from './operations';

/** The apps under test and credentials and ids that exist there, so some hostile requests reach deep checks. */
export interface HostileTargets {
  urls: Record<AppRole, string>;
  tenantID: string;
  /** A valid operator token of an owner of `tenantID`. */
  operatorToken: string;
  /** A plugin installed on `tenantID`, and that installation's connection. */
  plugin: { id: string; token: string };
  pluginConnection: { id: string; token: string };
  /** Ids of `tenantID`'s resources, put in paths now and then (never in a DELETE's). */
  knownIDs: string[];
  /** A helpdesk domain of `tenantID`, if any. */
  domainHostname?: string;
}

/**
 * Makes the targets in a database the apps use: a tenant with an owner, the
 * helpdesk plugin (so that the help-center operations accept its credentials)
 * installed on it, and a contact with a session.
 */
export async function prepareHostileTargets(
  database: Queryable,
  urls: Record<AppRole, string>,
  options: { signToken: (operatorID: string) => Promise<string>; helpdeskPluginUrn?: string },
): Promise<HostileTargets> {
  const fixtures = new FixtureBuilder(database);
  const conversations = new ConversationFixtures(database);
  const tenantID = await fixtures.tenant();
  const owner = await fixtures.operator();
  await fixtures.membership(tenantID, owner.operatorID, 'owner');
  const plugin = await fixtures.pluginWithUrn(options.helpdeskPluginUrn ?? 'urn:plugin:helpdesk', 'Helpdesk');
  const connection = await fixtures.connection(tenantID, plugin.pluginID);
  const contactID = await conversations.contact(tenantID);
  const inboxID = await conversations.inbox(tenantID, { pluginConnectionID: connection.pluginConnectionID });
  const sessionID = await conversations.session(tenantID, { contactID, inboxID });
  const messageID = await conversations.message(tenantID, sessionID, { direction: 'outbound' });
  return {
    urls,
    tenantID,
    operatorToken: await options.signToken(owner.operatorID),
    plugin: { id: plugin.pluginID, token: plugin.pluginToken },
    pluginConnection: { id: connection.pluginConnectionID, token: connection.pluginConnectionToken },
    knownIDs: [contactID, sessionID, connection.pluginConnectionID, inboxID, messageID],
  };
}
