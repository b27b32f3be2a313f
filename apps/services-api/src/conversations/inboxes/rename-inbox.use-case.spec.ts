import { describe, expect, it } from 'vitest';
import { INBOX_ID, OPERATOR_ID, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import { inboxesOver, storedInbox } from '../../../test/doubles/inboxes.fakes';
import { memberAccess } from '../../../test/doubles/member-access.fakes';
import { RenameInboxUseCase } from './rename-inbox.use-case';

function setUp(options: { owner: boolean }) {
  const { access } = memberAccess(options);
  const inboxes = inboxesOver([storedInbox()]);
  const useCase = new RenameInboxUseCase(access, inboxes.repository, inboxes.audit.asTrail());
  const rename = (inboxID = INBOX_ID) => useCase.execute({ principal: { kind: 'operator', operatorID: OPERATOR_ID }, tenantID: TENANT_ID, inboxID, name: 'Sales' });
  return { rename, ...inboxes };
}

describe('RenameInboxUseCase', () => {
  it('renames a live inbox with an audit record naming the new name, in the same transaction, and answers it renamed', async () => {
    const { rename, written, audited, audit } = setUp({ owner: true });
    expect(await rename()).toMatchObject({ inboxID: INBOX_ID, name: 'Sales', updatedAt: '2026-11-28T13:00:00.000Z' });
    expect(written).toEqual([`rename ${INBOX_ID} Sales`, 'commit']);
    expect(audited()).toEqual([`inbox.renamed ${INBOX_ID}`]);
    expect(audit.records[0].record.summary).toEqual({ name: 'Sales' });
  });

  it('refuses an inbox the tenant has not with 404 1940, recording nothing', async () => {
    const { rename, audited } = setUp({ owner: true });
    await expect(rename('4f1e2d3c-0b9a-4876-9543-210fedcba987')).rejects.toMatchObject({ key: 'InboxNotFound' });
    expect(audited()).toEqual([]);
  });

  it('refuses a member who is not an owner with 403 1004, renaming nothing', async () => {
    const { rename, written, live } = setUp({ owner: false });
    await expect(rename()).rejects.toMatchObject({ key: 'Forbidden' });
    expect(written).toEqual([]);
    expect(live.get(INBOX_ID)?.name).toBe('Support');
  });
});
