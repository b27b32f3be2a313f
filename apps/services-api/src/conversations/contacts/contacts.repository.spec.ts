import { trustedTenantScope } from '@platform/auth';
import { ConversationFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactsRepository, ContactViewer, ListedContact } from './contacts.repository';

/**
 * A tenant's contacts against PostgreSQL: newest first by keyset, the lookup
 * by handle on any channel, a plugin connection's contacts (a session on its
 * own inboxes), and nothing of another tenant's.
 */
describe('ContactsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let contacts: ContactsRepository;
  let tenantID: string;
  let otherTenantID: string;
  let connectionID: string;
  let otherConnectionID: string;
  /** Oldest first. */
  const ids: string[] = [];
  let foreignID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    contacts = new ContactsRepository(dataSource);
    const fixtures = new FixtureBuilder(dataSource);
    const conversations = new ConversationFixtures(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    connectionID = (await fixtures.connection(tenantID, (await fixtures.plugin()).pluginID)).pluginConnectionID;
    otherConnectionID = (await fixtures.connection(tenantID, (await fixtures.plugin()).pluginID)).pluginConnectionID;
    const inboxID = await conversations.inbox(tenantID, { pluginConnectionID: connectionID });
    const otherInboxID = await conversations.inbox(tenantID, { pluginConnectionID: otherConnectionID });
    for (const [index, name] of ['Ana', 'Bruno', 'Carla', 'Davi'].entries()) {
      const id = await conversations.contact(tenantID, name);
      await dataSource.query(`UPDATE contacts SET created_at = now() - $2 * interval '1 minute' WHERE id = $1`, [id, 10 - index]);
      ids.push(id);
    }
    const handle = (contactID: string, channel: string, value: string, tenant = tenantID) =>
      dataSource.query(`INSERT INTO contact_handles (tenant_id, channel, handle, contact_id) VALUES ($1, $2, $3, $4)`, [tenant, channel, value, contactID]);
    await handle(ids[0], 'whatsapp', '+5511900000001');
    await handle(ids[0], 'sms', '+5511900000001');
    await handle(ids[2], 'whatsapp', '+5511900000003');
    // Ana and Carla talk on the connection's inbox, Davi on the other's; Bruno on none.
    await conversations.session(tenantID, { contactID: ids[0], inboxID });
    await conversations.session(tenantID, { contactID: ids[2], inboxID });
    await conversations.session(tenantID, { contactID: ids[3], inboxID: otherInboxID });
    foreignID = await conversations.contact(otherTenantID, 'Elisa');
    await handle(foreignID, 'whatsapp', '+5511900000001', otherTenantID);
  });
  afterAll(() => close?.());

  const operator: ContactViewer = { kind: 'operator' };
  const connection = (pluginConnectionID: string): ContactViewer => ({ kind: 'pluginConnection', pluginConnectionID });
  const idsOf = (found: ListedContact[]) => found.map((listed) => listed.contact.contactID);
  const newestFirst = () => [...ids].reverse();

  it('lists every contact newest first for an operator, each with its handles, and pages by keyset', async () => {
    const scope = trustedTenantScope(tenantID);
    const all = await contacts.page(scope, operator, undefined, undefined, 10);
    expect(idsOf(all)).toEqual(newestFirst());
    expect(all[3].contact).toEqual({
      contactID: ids[0],
      name: 'Ana',
      handles: [
        { channel: 'sms', handle: '+5511900000001' },
        { channel: 'whatsapp', handle: '+5511900000001' },
      ],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(all[0].contact.handles).toEqual([]);
    const first = await contacts.page(scope, operator, undefined, undefined, 3);
    const rest = await contacts.page(scope, operator, undefined, first[2].position, 3);
    expect([...idsOf(first), ...idsOf(rest)]).toEqual(newestFirst());
  });

  it('finds the contacts of a handle on any channel, exactly', async () => {
    const scope = trustedTenantScope(tenantID);
    expect(idsOf(await contacts.page(scope, operator, '+5511900000001', undefined, 10))).toEqual([ids[0]]);
    expect(idsOf(await contacts.page(scope, operator, '+5511900000003', undefined, 10))).toEqual([ids[2]]);
    expect(idsOf(await contacts.page(scope, operator, '5511900000001', undefined, 10))).toEqual([]);
  });

  it('lists a plugin connection only the contacts with a session on its own inboxes', async () => {
    const scope = trustedTenantScope(tenantID);
    expect(idsOf(await contacts.page(scope, connection(connectionID), undefined, undefined, 10))).toEqual([ids[2], ids[0]]);
    expect(idsOf(await contacts.page(scope, connection(otherConnectionID), undefined, undefined, 10))).toEqual([ids[3]]);
    expect(idsOf(await contacts.page(scope, connection(otherConnectionID), '+5511900000001', undefined, 10))).toEqual([]);
  });

  it("reads nothing of another tenant's", async () => {
    expect(idsOf(await contacts.page(trustedTenantScope(otherTenantID), operator, undefined, undefined, 10))).toEqual([foreignID]);
    expect(idsOf(await contacts.page(trustedTenantScope(otherTenantID), operator, '+5511900000003', undefined, 10))).toEqual([]);
  });
});
