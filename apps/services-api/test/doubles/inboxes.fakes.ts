import type { SqlRunner } from '@platform/database';
import { fake, RecordingAuditTrail } from '@platform/testing';
import type { InboxesRepository, StoredInbox } from '../../src/conversations/inboxes/inboxes.repository';
import { CONNECTION_ID, INBOX_ID } from './conversations.fakes';

/** An inbox as the repository stores it, on the conversation fakes' plugin connection unless told otherwise. */
export function storedInbox(changes: Partial<StoredInbox> = {}): StoredInbox {
  return {
    inboxID: INBOX_ID,
    name: 'Support',
    channel: 'whatsapp',
    pluginConnectionID: CONNECTION_ID,
    createdAt: new Date('2026-11-28T12:00:00.000Z'),
    updatedAt: new Date('2026-11-28T12:00:00.000Z'),
    ...changes,
  };
}

/**
 * The tenant's inboxes in memory (`live`, removed ones gone), a live plugin
 * connection `CONNECTION_ID`, and sessions open on the inboxes in
 * `withOpenSessions`: `written` lists what reached the database, in order,
 * each marked when not done in the transaction, then `commit`; `audit` what
 * was recorded, with its runner.
 */
export function inboxesOver(inboxes: StoredInbox[], options: { withOpenSessions?: string[] } = {}) {
  const runner: SqlRunner = { query: async () => [] };
  const written: string[] = [];
  const audit = new RecordingAuditTrail();
  const inTransaction = (used: SqlRunner | undefined) => (used === runner ? '' : ' outside the transaction');
  const live = new Map(inboxes.map((inbox) => [inbox.inboxID, inbox]));
  const repository = fake<InboxesRepository>({
    transaction: async <T>(work: (runner: SqlRunner) => Promise<T>): Promise<T> => {
      const result = await work(runner);
      written.push('commit');
      return result;
    },
    live: async (_scope: unknown, inboxID: string) => live.get(inboxID),
    lockLive: async (used: SqlRunner, _scope: unknown, inboxID: string) => {
      written.push(`lock ${inboxID}${inTransaction(used)}`);
      return live.get(inboxID);
    },
    hasLiveConnection: async (_runner: SqlRunner, _scope: unknown, pluginConnectionID: string) => pluginConnectionID === CONNECTION_ID,
    hasOpenSessions: async (_runner: SqlRunner, _scope: unknown, inboxID: string) => (options.withOpenSessions ?? []).includes(inboxID),
    insert: async (used: SqlRunner, _scope: unknown, inbox: { name: string; channel: string; pluginConnectionID: string }) => {
      written.push(`insert ${inbox.name}${inTransaction(used)}`);
      const created = storedInbox({ ...inbox, inboxID: '6b5a4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d' });
      live.set(created.inboxID, created);
      return created;
    },
    rename: async (used: SqlRunner, _scope: unknown, inboxID: string, name: string) => {
      const inbox = live.get(inboxID);
      if (!inbox) return undefined;
      written.push(`rename ${inboxID} ${name}${inTransaction(used)}`);
      const renamed = { ...inbox, name, updatedAt: new Date('2026-11-28T13:00:00.000Z') };
      live.set(inboxID, renamed);
      return renamed;
    },
    remove: async (used: SqlRunner, _scope: unknown, inboxID: string) => {
      written.push(`remove ${inboxID}${inTransaction(used)}`);
      live.delete(inboxID);
    },
  });
  /** The audit records, as `action targetID`, marked when not in the transaction. */
  const audited = () => audit.records.map((entry) => `${entry.record.action} ${entry.record.targetID}${inTransaction(entry.runner as SqlRunner)}`);
  return { repository, written, audit, audited, live };
}
