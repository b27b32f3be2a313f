import { trustedTenantScope } from '@platform/auth';
import { ConversationFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessagesRepository } from './messages.repository';

/**
 * Messages' SQL against PostgreSQL: the row mapping into the message and its
 * keyset position (to the microsecond), the inbound insert that is one row
 * per channel message id and inbox, the delivery status and its code, the
 * session's pages newest first after a position, and tenant scoping.
 */
describe('MessagesRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let messages: MessagesRepository;
  let conversations: ConversationFixtures;
  let tenantID: string;
  let otherTenantID: string;
  let inboxID: string;
  let contactID: string;
  let operatorID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    messages = new MessagesRepository(dataSource);
    const fixtures = new FixtureBuilder(dataSource);
    conversations = new ConversationFixtures(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    operatorID = (await fixtures.operator()).operatorID;
    inboxID = await conversations.inbox(tenantID);
    contactID = await conversations.contact(tenantID);
  });
  afterAll(() => close?.());

  const scope = (tenant = tenantID) => trustedTenantScope(tenant);
  const newSession = () => conversations.session(tenantID, { contactID, inboxID });
  const inbound = (sessionID: string, channelMessageID: string, content = 'Olá!', inbox = inboxID) =>
    messages.transaction((runner) => messages.insertInbound(runner, scope(), { sessionID, inboxID: inbox, content, channelMessageID }));

  it('stores an inbound message once per channel message id and inbox, and reads it back as a camelCase message', async () => {
    const sessionID = await newSession();
    const stored = await inbound(sessionID, 'wamid.1', 'Bom dia');

    expect(stored).toEqual({
      message: {
        messageID: expect.any(String),
        sessionID,
        inboxID,
        messageDirection: 'inbound',
        messageKey: 'text',
        messageStatus: 0,
        deliveryStatus: null,
        messageValue: 'Bom dia',
        channelMessageID: 'wamid.1',
        operatorID: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
      position: { createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/), messageID: stored!.message.messageID },
    });
    expect(await inbound(sessionID, 'wamid.1', 'the same message again')).toBeUndefined();
    expect(await messages.byChannelMessageID(scope(), inboxID, 'wamid.1')).toEqual(stored);
    expect(await messages.byChannelMessageID(scope(otherTenantID), inboxID, 'wamid.1')).toBeUndefined();

    const otherInbox = await conversations.inbox(tenantID, { name: 'Instagram' });
    expect(await inbound(sessionID, 'wamid.1', 'Bom dia', otherInbox)).toMatchObject({ message: { inboxID: otherInbox, channelMessageID: 'wamid.1' } });
  });

  it('stores an outbound message pending, moves its delivery status with its code, and finds it in its tenant only', async () => {
    const sessionID = await newSession();
    const sent = await messages.transaction((runner) => messages.insertOutbound(runner, scope(), { sessionID, inboxID, content: 'Tudo bem?', operatorID }));
    expect(sent.message).toMatchObject({ messageDirection: 'outbound', deliveryStatus: 'pending', messageStatus: 0, operatorID, channelMessageID: null, messageValue: 'Tudo bem?' });

    const delivered = await messages.transaction((runner) => messages.setDeliveryStatus(runner, scope(), sent.message.messageID, 'delivered'));
    expect(delivered.message).toMatchObject({ deliveryStatus: 'delivered', messageStatus: 2, createdAt: sent.message.createdAt });
    const failed = await messages.transaction((runner) => messages.setDeliveryStatus(runner, scope(), sent.message.messageID, 'failed'));
    expect(failed.message).toMatchObject({ deliveryStatus: 'failed', messageStatus: 4 });

    expect(await messages.byID(scope(), sent.message.messageID)).toEqual(failed);
    expect(await messages.byID(scope(otherTenantID), sent.message.messageID)).toBeUndefined();
    expect(await messages.byID(scope(), randomUUID())).toBeUndefined();
  });

  it("pages a session's messages newest first after a position, the id ordering one instant, to the end", async () => {
    const sessionID = await newSession();
    const otherSession = await newSession();
    const at = (seconds: number) => new Date(Date.UTC(2026, 2, 2, 12, 0, seconds));
    const oldest = await conversations.message(tenantID, sessionID, { createdAt: at(0) });
    const tied = [await conversations.message(tenantID, sessionID, { createdAt: at(1) }), await conversations.message(tenantID, sessionID, { createdAt: at(1) })].sort();
    const newest = await conversations.message(tenantID, sessionID, { createdAt: at(2) });
    await conversations.message(tenantID, otherSession, { createdAt: at(3) });
    const order = [newest, tied[1], tied[0], oldest];
    const idsOf = (page: { message: { messageID: string } }[]) => page.map((stored) => stored.message.messageID);

    expect(idsOf(await messages.page(scope(), sessionID, undefined, 10))).toEqual(order);
    const first = await messages.page(scope(), sessionID, undefined, 2);
    expect(idsOf(first)).toEqual(order.slice(0, 2));
    // The position of the page's last message: the next page starts after it, the other message of its instant included.
    const second = await messages.page(scope(), sessionID, first[1].position, 2);
    expect(idsOf(second)).toEqual(order.slice(2));
    expect(second[0].position).toEqual({ createdAt: '2026-03-02T12:00:01.000000Z', messageID: tied[0] });
    expect(await messages.page(scope(), sessionID, second[1].position, 2)).toEqual([]);
    expect(await messages.page(scope(otherTenantID), sessionID, undefined, 10)).toEqual([]);
  });
});
