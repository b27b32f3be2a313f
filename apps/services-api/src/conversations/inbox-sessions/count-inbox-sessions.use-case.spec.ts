import type { OperatorPrincipal, PluginConnectionPrincipal } from '@platform/auth';
import { fake, FakeTenantAccess } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { CONNECTION_ID, INBOX_ID, OPERATOR_ID, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import { inboxesOver, storedInbox } from '../../../test/doubles/inboxes.fakes';
import { CountInboxSessionsUseCase } from './count-inbox-sessions.use-case';
import type { InboxSessionsRepository, QueueCounts, QueueVisibility } from './inbox-sessions.repository';

const operator: OperatorPrincipal = { kind: 'operator', operatorID: OPERATOR_ID };
const connection = (pluginConnectionID: string): PluginConnectionPrincipal => ({ kind: 'pluginConnection', pluginID: 'a-plugin', pluginConnectionID, tenantID: TENANT_ID });

function setUp(counts: QueueCounts) {
  const asked: { inboxID: string; visibility: QueueVisibility }[] = [];
  const useCase = new CountInboxSessionsUseCase(
    new FakeTenantAccess().asAccess(),
    inboxesOver([storedInbox()]).repository,
    fake<InboxSessionsRepository>({
      counts: async (_scope: unknown, inboxID: string, visibility: QueueVisibility) => {
        asked.push({ inboxID, visibility });
        return counts;
      },
    }),
  );
  const count = (principal: OperatorPrincipal | PluginConnectionPrincipal, inboxID = INBOX_ID) => useCase.execute({ principal, tenantID: TENANT_ID, inboxID });
  return { count, asked };
}

describe('CountInboxSessionsUseCase', () => {
  it("answers the counts of the open sessions the operator may see, `unassigned` being the queued ones", async () => {
    const { count, asked } = setUp({ queued: 3, assigned: 2, open: 5, mine: 1 });
    expect(await count(operator)).toEqual({ queued: 3, assigned: 2, open: 5, unassigned: 3, mine: 1 });
    expect(asked).toEqual([{ inboxID: INBOX_ID, visibility: { kind: 'operator', operatorID: OPERATOR_ID } }]);
  });

  it("answers its own inbox's counts to a plugin connection, with no `mine` (it has no sessions of its own)", async () => {
    const { count, asked } = setUp({ queued: 1, assigned: 0, open: 1, mine: null });
    expect(await count(connection(CONNECTION_ID))).toEqual({ queued: 1, assigned: 0, open: 1, unassigned: 1, mine: null });
    expect(asked).toEqual([{ inboxID: INBOX_ID, visibility: { kind: 'pluginConnection', pluginConnectionID: CONNECTION_ID } }]);
  });

  it("answers 404 1940 for another connection's inbox and one the tenant has not, counting nothing", async () => {
    const { count, asked } = setUp({ queued: 1, assigned: 0, open: 1, mine: null });
    await expect(count(connection('4f1e2d3c-0b9a-4876-9543-210fedcba987'))).rejects.toMatchObject({ key: 'InboxNotFound' });
    await expect(count(operator, '4f1e2d3c-0b9a-4876-9543-210fedcba987')).rejects.toMatchObject({ key: 'InboxNotFound' });
    expect(asked).toEqual([]);
  });
});
