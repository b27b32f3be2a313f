import { trustedTenantScope } from '@platform/auth';
import { ConversationFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ClaimedMailBatch, NotificationMailKind, NotificationMailsRepository } from './notification-mails.repository';

const INTERVAL_SECONDS = 300;
const LEASE_MS = 60_000;

/**
 * The notification mail queue's SQL against PostgreSQL: who an event is
 * recorded for (offline or away, wanting its kind), in the event's
 * transaction; when a batch is due, its lease and its retry; what a mail is
 * made of as of the send (read sessions and unwanted kinds not deliverable,
 * a non-member no recipient); and closing or reopening a batch after a send.
 */
describe('NotificationMailsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let mails: NotificationMailsRepository;
  let conversations: ConversationFixtures;
  let tenantID: string;
  let otherTenantID: string;
  let inboxID: string;
  let contactID: string;
  let ana: string;
  let bia: string;
  let anaEmail: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(4));
    mails = new NotificationMailsRepository(dataSource);
    const fixtures = new FixtureBuilder(dataSource);
    conversations = new ConversationFixtures(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    await dataSource.query(`UPDATE tenants SET name = 'Acme Atendimento' WHERE id = $1`, [tenantID]);
    const anaOperator = await fixtures.operator({ firstname: 'Ana' });
    ana = anaOperator.operatorID;
    anaEmail = anaOperator.email;
    bia = (await fixtures.operator({ firstname: 'Bia' })).operatorID;
    await fixtures.membership(tenantID, ana, 'member');
    await fixtures.membership(tenantID, bia, 'member');
    await fixtures.membership(otherTenantID, ana, 'member');
    inboxID = await conversations.inbox(tenantID);
    contactID = await conversations.contact(tenantID, 'Maria Souza');
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    await dataSource.query('DELETE FROM notification_mail_batches');
    await dataSource.query('DELETE FROM notification_mail_items');
    await dataSource.query('DELETE FROM notification_mail_preferences');
    await dataSource.query('DELETE FROM operator_presence');
    await dataSource.query('DELETE FROM notifications');
  });

  const scope = (tenant = tenantID) => trustedTenantScope(tenant);
  const presence = (operatorID: string, status: 'online' | 'busy' | 'away' | 'offline', tenant = tenantID) =>
    dataSource.query(`INSERT INTO operator_presence (tenant_id, operator_id, chosen_status, status) VALUES ($1, $2, $3, $3)`, [tenant, operatorID, status]);
  const prefer = (operatorID: string, choice: { assigned: boolean; contactWrote: boolean }) =>
    dataSource.query(`INSERT INTO notification_mail_preferences (tenant_id, operator_id, assigned, contact_wrote) VALUES ($1, $2, $3, $4)`, [
      tenantID,
      operatorID,
      choice.assigned,
      choice.contactWrote,
    ]);
  /** A session assigned to the operator with their unread notification of it, as the assignment writes them. */
  const assignedSession = async (operatorID: string) => {
    const sessionID = await conversations.session(tenantID, { contactID, inboxID, operatorID });
    await conversations.notification(tenantID, { operatorID, category: 'assignment', sessionID });
    return sessionID;
  };
  const record = (operatorID: string, kind: NotificationMailKind, sessionID: string, messageID?: string, tenant = tenantID) =>
    mails.transaction((runner) => mails.record(runner, scope(tenant), { operatorID, kind, sessionID, messageID }));
  const itemCount = async (operatorID: string) =>
    Number((await dataSource.query(`SELECT count(*) AS n FROM notification_mail_items WHERE operator_id = $1`, [operatorID]))[0].n);
  const later = (seconds: number) => new Date(Date.now() + seconds * 1000);
  const claimAt = (at: Date) => mails.claim(at, new Date(at.getTime() + LEASE_MS), INTERVAL_SECONDS);

  describe('record', () => {
    it('records an event for an operator without a presence row (offline) or away, and opens one batch for them', async () => {
      const sessionID = await assignedSession(ana);
      await record(ana, 'assigned', sessionID);
      await presence(bia, 'away');
      await record(bia, 'assigned', sessionID);
      await record(bia, 'assigned', sessionID);
      expect(await itemCount(ana)).toBe(1);
      expect(await itemCount(bia)).toBe(2);
      const batches = await dataSource.query(`SELECT operator_id FROM notification_mail_batches ORDER BY operator_id`);
      expect(batches.map((row: { operator_id: string }) => row.operator_id)).toEqual([ana, bia].sort());
    });

    it.each(['online', 'busy'] as const)('records nothing for an operator who is %s', async (status) => {
      const sessionID = await assignedSession(ana);
      await presence(ana, status);
      await record(ana, 'assigned', sessionID);
      expect(await itemCount(ana)).toBe(0);
      expect(await dataSource.query(`SELECT 1 FROM notification_mail_batches`)).toEqual([]);
    });

    it("reads presence in the event's tenant: online elsewhere is still offline here", async () => {
      await presence(ana, 'online', otherTenantID);
      await record(ana, 'assigned', await assignedSession(ana));
      expect(await itemCount(ana)).toBe(1);
    });

    it('records only the kinds the operator wants', async () => {
      await prefer(ana, { assigned: false, contactWrote: true });
      const sessionID = await assignedSession(ana);
      const messageID = await conversations.message(tenantID, sessionID);
      await record(ana, 'assigned', sessionID);
      await record(ana, 'contactWrote', sessionID, messageID);
      const kinds = await dataSource.query(`SELECT kind, message_id FROM notification_mail_items WHERE operator_id = $1`, [ana]);
      expect(kinds).toEqual([{ kind: 'contactWrote', message_id: messageID }]);
    });

    it("writes nothing when the event's transaction rolls back", async () => {
      const sessionID = await assignedSession(ana);
      await expect(
        mails.transaction(async (runner) => {
          await mails.record(runner, scope(), { operatorID: ana, kind: 'assigned', sessionID });
          throw new Error('the assignment failed');
        }),
      ).rejects.toThrow('the assignment failed');
      expect(await itemCount(ana)).toBe(0);
      expect(await dataSource.query(`SELECT 1 FROM notification_mail_batches`)).toEqual([]);
    });
  });

  describe('claim', () => {
    it('claims a batch once its interval has passed, as a camelCase row, and not again while leased', async () => {
      await record(ana, 'assigned', await assignedSession(ana));
      expect(await claimAt(later(INTERVAL_SECONDS - 30))).toBeUndefined();
      const at = later(INTERVAL_SECONDS + 1);
      expect(await claimAt(at)).toEqual({ tenantID, operatorID: ana, failures: 0 });
      expect(await claimAt(at)).toBeUndefined();
      // A replica that died mid-send: the batch is claimable again once the lease lapses.
      expect(await claimAt(new Date(at.getTime() + LEASE_MS))).toEqual({ tenantID, operatorID: ana, failures: 0 });
    });

    it('after a failure, claims the batch at its retry time, with the failures counted', async () => {
      await record(ana, 'assigned', await assignedSession(ana));
      const batch = (await claimAt(later(INTERVAL_SECONDS + 1)))!;
      await mails.failed(batch, later(INTERVAL_SECONDS + 60));
      expect(await claimAt(later(INTERVAL_SECONDS + 30))).toBeUndefined();
      expect(await claimAt(later(INTERVAL_SECONDS + 61))).toEqual({ tenantID, operatorID: ana, failures: 1 });
      expect(await itemCount(ana)).toBe(1);
    });
  });

  describe('what a mail is made of', () => {
    const claimed = async (): Promise<ClaimedMailBatch> => (await claimAt(later(INTERVAL_SECONDS + 1)))!;

    it("names the member's address and first name and the tenant; nobody once they left the tenant", async () => {
      await record(ana, 'assigned', await assignedSession(ana));
      const batch = await claimed();
      expect(await mails.recipient(batch)).toEqual({ email: anaEmail, firstname: 'Ana', tenantName: 'Acme Atendimento' });
      await dataSource.query(`DELETE FROM memberships WHERE tenant_id = $1 AND operator_id = $2`, [tenantID, ana]);
      expect(await mails.recipient(batch)).toBeUndefined();
      await mails.discard(batch);
      expect(await itemCount(ana)).toBe(0);
      await new FixtureBuilder(dataSource).membership(tenantID, ana, 'member');
    });

    it('lists the items oldest first with the contact and the start of the message; read sessions and unwanted kinds are not deliverable', async () => {
      const kept = await assignedSession(ana);
      const read = await assignedSession(ana);
      const long = 'x'.repeat(500);
      const messageID = await conversations.message(tenantID, kept, { value: long });
      await record(ana, 'assigned', kept);
      await record(ana, 'contactWrote', kept, messageID);
      await record(ana, 'assigned', read);
      await dataSource.query(`UPDATE notifications SET read_at = now() WHERE session_id = $1 AND operator_id = $2`, [read, ana]);
      const batch = await claimed();
      const items = await mails.waiting(batch, 10);
      expect(items.map(({ kind, sessionID, contactName, deliverable }) => ({ kind, sessionID, contactName, deliverable }))).toEqual([
        { kind: 'assigned', sessionID: kept, contactName: 'Maria Souza', deliverable: true },
        { kind: 'contactWrote', sessionID: kept, contactName: 'Maria Souza', deliverable: true },
        { kind: 'assigned', sessionID: read, contactName: 'Maria Souza', deliverable: false },
      ]);
      expect(items[1].excerpt).toBe('x'.repeat(200));
      expect(items[0].excerpt).toBeNull();

      await prefer(ana, { assigned: false, contactWrote: true });
      expect((await mails.waiting(batch, 10)).map((item) => item.deliverable)).toEqual([false, true, false]);
    });

    it('a notification read and a new one since: the older item stays read, the newer one is deliverable', async () => {
      const sessionID = await assignedSession(ana);
      await record(ana, 'assigned', sessionID);
      await dataSource.query(`UPDATE notifications SET read_at = now() WHERE session_id = $1`, [sessionID]);
      await mails.transaction(async (runner) => {
        await runner.query(`INSERT INTO notifications (tenant_id, operator_id, category, inbox_id, session_id) VALUES ($1, $2, 'inbox', $3, $4)`, [tenantID, ana, inboxID, sessionID]);
        await mails.record(runner, scope(), { operatorID: ana, kind: 'contactWrote', sessionID, messageID: await conversations.message(tenantID, sessionID) });
      });
      expect((await mails.waiting(await claimed(), 10)).map((item) => [item.kind, item.deliverable])).toEqual([
        ['assigned', false],
        ['contactWrote', true],
      ]);
    });

    it("never lists another operator's or another tenant's items", async () => {
      await record(ana, 'assigned', await assignedSession(ana));
      await record(bia, 'assigned', await assignedSession(bia));
      const first = await claimed();
      const second = (await claimAt(later(INTERVAL_SECONDS + 1)))!;
      for (const batch of [first, second]) {
        const items = await mails.waiting(batch, 10);
        expect(items).toHaveLength(1);
        const owner = await dataSource.query(`SELECT operator_id, tenant_id FROM notification_mail_items WHERE id = $1`, [items[0].id]);
        expect(owner).toEqual([{ operator_id: batch.operatorID, tenant_id: batch.tenantID }]);
      }
    });
  });

  describe('after a send', () => {
    it('deletes the items sent and closes the batch', async () => {
      await record(ana, 'assigned', await assignedSession(ana));
      const batch = (await claimAt(later(INTERVAL_SECONDS + 1)))!;
      const items = await mails.waiting(batch, 10);
      await mails.finish(batch, items.map((item) => item.id), new Date());
      expect(await itemCount(ana)).toBe(0);
      expect(await dataSource.query(`SELECT 1 FROM notification_mail_batches`)).toEqual([]);
    });

    it('keeps items that came meanwhile in a batch reopened at the send: due one interval later', async () => {
      await record(ana, 'assigned', await assignedSession(ana));
      const batch = (await claimAt(later(INTERVAL_SECONDS + 1)))!;
      const items = await mails.waiting(batch, 10);
      await record(ana, 'assigned', await assignedSession(ana));
      const sentAt = later(INTERVAL_SECONDS + 1);
      await mails.finish(batch, items.map((item) => item.id), sentAt);
      expect(await itemCount(ana)).toBe(1);
      expect(await claimAt(new Date(sentAt.getTime() + (INTERVAL_SECONDS - 30) * 1000))).toBeUndefined();
      expect(await claimAt(new Date(sentAt.getTime() + (INTERVAL_SECONDS + 1) * 1000))).toEqual({ tenantID, operatorID: ana, failures: 0 });
    });
  });
});
