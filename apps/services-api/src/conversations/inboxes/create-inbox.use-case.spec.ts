import { describe, expect, it } from 'vitest';
import { CONNECTION_ID, OPERATOR_ID, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import { inboxesOver } from '../../../test/doubles/inboxes.fakes';
import { memberAccess } from '../../../test/doubles/member-access.fakes';
import { CreateInboxUseCase } from './create-inbox.use-case';

function setUp(options: { owner: boolean }) {
  const { access, required } = memberAccess(options);
  const inboxes = inboxesOver([]);
  const claims: string[] = [];
  const useCase = new CreateInboxUseCase(access, inboxes.repository, inboxes.audit.asTrail());
  const create = (pluginConnectionID = CONNECTION_ID) =>
    useCase.execute({ principal: { kind: 'operator', operatorID: OPERATOR_ID }, tenantID: TENANT_ID, name: 'Support', channel: 'whatsapp', pluginConnectionID, idempotency: { claimKey: async () => void claims.push('claimed') } });
  return { create, required, claims, ...inboxes };
}

describe('CreateInboxUseCase', () => {
  it("creates the inbox on the tenant's live plugin connection with its audit record, in one transaction, for an owner", async () => {
    const { create, written, audited, audit, required, claims } = setUp({ owner: true });
    expect(await create()).toEqual({
      inboxID: '6b5a4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d',
      name: 'Support',
      channel: 'whatsapp',
      pluginConnectionID: CONNECTION_ID,
      createdAt: '2026-11-28T12:00:00.000Z',
      updatedAt: '2026-11-28T12:00:00.000Z',
    });
    expect(written).toEqual(['insert Support', 'commit']);
    expect(audited()).toEqual(['inbox.created 6b5a4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d']);
    expect(audit.records[0].record.summary).toEqual({ name: 'Support', channel: 'whatsapp', pluginConnectionID: CONNECTION_ID });
    expect(required).toEqual([{ ownerOnly: true, tenantNotFoundIs404: true }]);
    expect(claims).toEqual(['claimed']);
  });

  it('refuses a plugin connection the tenant has not (or no longer) live with 404 1054, creating and recording nothing', async () => {
    const { create, written, audited } = setUp({ owner: true });
    await expect(create('4f1e2d3c-0b9a-4876-9543-210fedcba987')).rejects.toMatchObject({ key: 'PluginConnectionNotFound' });
    expect(written).toEqual([]);
    expect(audited()).toEqual([]);
  });

  it('refuses a member who is not an owner with 403 1004, before claiming the idempotency key', async () => {
    const { create, written, claims } = setUp({ owner: false });
    await expect(create()).rejects.toMatchObject({ key: 'Forbidden' });
    expect(claims).toEqual([]);
    expect(written).toEqual([]);
  });
});
