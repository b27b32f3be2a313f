import type { OperatorPrincipal, PluginConnectionPrincipal } from '@platform/auth';
import { FakeTenantAccess } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { CONNECTION_ID, INBOX_ID, OPERATOR_ID, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import { inboxesOver, storedInbox } from '../../../test/doubles/inboxes.fakes';
import { GetInboxUseCase } from './get-inbox.use-case';

const operator: OperatorPrincipal = { kind: 'operator', operatorID: OPERATOR_ID };
const connection = (pluginConnectionID: string): PluginConnectionPrincipal => ({ kind: 'pluginConnection', pluginID: 'a-plugin', pluginConnectionID, tenantID: TENANT_ID });

function setUp() {
  const access = new FakeTenantAccess();
  const useCase = new GetInboxUseCase(access.asAccess(), inboxesOver([storedInbox()]).repository);
  const get = (principal: OperatorPrincipal | PluginConnectionPrincipal, inboxID = INBOX_ID) => useCase.execute({ principal, tenantID: TENANT_ID, inboxID });
  return { get, access };
}

describe('GetInboxUseCase', () => {
  it("answers a live inbox to any operator of the tenant and to its own plugin connection, as the list shows it", async () => {
    const { get, access } = setUp();
    const shown = { inboxID: INBOX_ID, name: 'Support', channel: 'whatsapp', pluginConnectionID: CONNECTION_ID, createdAt: '2026-11-28T12:00:00.000Z', updatedAt: '2026-11-28T12:00:00.000Z' };
    expect(await get(operator)).toEqual(shown);
    expect(await get(connection(CONNECTION_ID))).toEqual(shown);
    expect(access.checks.map((check) => check.requirement)).toEqual([{ tenantNotFoundIs404: true }, { tenantNotFoundIs404: true }]);
  });

  it("answers 404 1940 for another connection's inbox, exactly as for one the tenant has not", async () => {
    const { get } = setUp();
    await expect(get(connection('4f1e2d3c-0b9a-4876-9543-210fedcba987'))).rejects.toMatchObject({ key: 'InboxNotFound' });
    await expect(get(operator, '4f1e2d3c-0b9a-4876-9543-210fedcba987')).rejects.toMatchObject({ key: 'InboxNotFound' });
  });
});
