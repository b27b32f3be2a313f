import { describe, expect, it } from 'vitest';
import { INBOX_ID, OPERATOR_ID, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import { inboxesOver, storedInbox } from '../../../test/doubles/inboxes.fakes';
import { memberAccess } from '../../../test/doubles/member-access.fakes';
import { RemoveInboxUseCase } from './remove-inbox.use-case';

function setUp(options: { owner: boolean; withOpenSessions?: string[] }) {
  const { access } = memberAccess(options);
  const inboxes = inboxesOver([storedInbox()], options);
  const useCase = new RemoveInboxUseCase(access, inboxes.repository, inboxes.audit.asTrail());
  const remove = (inboxID = INBOX_ID) => useCase.execute({ principal: { kind: 'operator', operatorID: OPERATOR_ID }, tenantID: TENANT_ID, inboxID });
  return { remove, ...inboxes };
}

describe('RemoveInboxUseCase', () => {
  it('removes an inbox without open sessions under its lock, with its audit record, in one transaction', async () => {
    const { remove, written, audited, live } = setUp({ owner: true });
    await remove();
    expect(written).toEqual([`lock ${INBOX_ID}`, `remove ${INBOX_ID}`, 'commit']);
    expect(audited()).toEqual([`inbox.removed ${INBOX_ID}`]);
    expect(live.has(INBOX_ID)).toBe(false);
  });

  it('refuses an inbox with an open session with 409 1941, removing and recording nothing', async () => {
    const { remove, written, audited, live } = setUp({ owner: true, withOpenSessions: [INBOX_ID] });
    await expect(remove()).rejects.toMatchObject({ key: 'InboxHasOpenSessions' });
    expect(written).toEqual([`lock ${INBOX_ID}`]);
    expect(audited()).toEqual([]);
    expect(live.has(INBOX_ID)).toBe(true);
  });

  it('refuses an inbox the tenant has not, or removed already, with 404 1940', async () => {
    const { remove, audited } = setUp({ owner: true });
    await remove();
    await expect(remove()).rejects.toMatchObject({ key: 'InboxNotFound' });
    await expect(remove('4f1e2d3c-0b9a-4876-9543-210fedcba987')).rejects.toMatchObject({ key: 'InboxNotFound' });
    expect(audited()).toEqual([`inbox.removed ${INBOX_ID}`]);
  });

  it('refuses a member who is not an owner with 403 1004, touching nothing', async () => {
    const { remove, written } = setUp({ owner: false });
    await expect(remove()).rejects.toMatchObject({ key: 'Forbidden' });
    expect(written).toEqual([]);
  });
});
