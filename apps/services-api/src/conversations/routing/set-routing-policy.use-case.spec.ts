import type { SqlRunner } from '@platform/database';
import { fake, FakeTenantAccess, RecordingAuditTrail, transactionOn } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { INBOX_ID, OPERATOR_ID, OTHER_OPERATOR_ID, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import type { RoutingPolicy } from './routing-policy';
import type { RoutingRequests } from './routing-requests';
import type { RoutingRepository } from './routing.repository';
import { SetRoutingPolicyUseCase } from './set-routing-policy.use-case';

const OUTSIDER_ID = '6f708192-a3b4-4c5d-8e6f-708192a3b4c5';
const policy: RoutingPolicy = { inboxID: INBOX_ID, policy: 'least-loaded', capacity: 3, operatorIDs: [OPERATOR_ID, OTHER_OPERATOR_ID], requeueOfflineAfterSeconds: 600 };

function setUp(options: { liveInbox?: boolean } = {}) {
  const runner: SqlRunner = { query: async () => [] };
  const written: string[] = [];
  const inTransaction = (used: SqlRunner) => (used === runner ? '' : ' outside the transaction');
  const access = new FakeTenantAccess();
  const audit = new RecordingAuditTrail();
  const routing = fake<RoutingRepository>({
    transaction: transactionOn(runner),
    nonMembers: async (_tenantID: string, operatorIDs: string[]) => operatorIDs.filter((id) => id === OUTSIDER_ID),
    store: async (used: SqlRunner, _tenantID: string, stored: RoutingPolicy) => {
      written.push(`store ${stored.policy}${inTransaction(used)}`);
      return options.liveInbox ?? true;
    },
  });
  const requests = fake<RoutingRequests>({ request: async (used: SqlRunner, tenantID: string) => void written.push(`routing request ${tenantID}${inTransaction(used)}`) });
  const useCase = new SetRoutingPolicyUseCase(access.asAccess(), routing, requests, audit.asTrail());
  const set = (wanted: RoutingPolicy = policy) => useCase.execute({ principal: { kind: 'operator', operatorID: OPERATOR_ID }, tenantID: TENANT_ID, policy: wanted });
  return { set, written, audit, access, runner };
}

describe('SetRoutingPolicyUseCase', () => {
  it("stores an owner's policy, audits it and asks for a routing pass, all in one transaction", async () => {
    const { set, written, audit, access, runner } = setUp();
    expect(await set()).toEqual(policy);
    expect(access.checks).toEqual([{ tenantID: TENANT_ID, requirement: { ownerOnly: true, tenantNotFoundIs404: true } }]);
    expect(written).toEqual(['store least-loaded', `routing request ${TENANT_ID}`]);
    expect(audit.records).toEqual([
      {
        runner,
        tenantID: TENANT_ID,
        record: { action: 'inbox.routingChanged', targetID: INBOX_ID, summary: { policy: 'least-loaded', capacity: 3, operatorIDs: [OPERATOR_ID, OTHER_OPERATOR_ID], requeueOfflineAfterSeconds: 600 } },
      },
    ]);
  });

  it('refuses a policy naming an operator who is not a member (404 1990) before anything is written', async () => {
    const { set, written, audit } = setUp();
    await expect(set({ ...policy, operatorIDs: [OPERATOR_ID, OUTSIDER_ID] })).rejects.toMatchObject({ key: 'MemberNotFound' });
    expect(written).toEqual([]);
    expect(audit.records).toEqual([]);
  });

  it('answers an inbox that is not live with 404 1940, auditing nothing and asking for no pass', async () => {
    const { set, written, audit } = setUp({ liveInbox: false });
    await expect(set()).rejects.toMatchObject({ key: 'InboxNotFound' });
    expect(written).toEqual(['store least-loaded']);
    expect(audit.records).toEqual([]);
  });

  it("refuses a member who is not the tenant's owner (403 1004), writing nothing", async () => {
    const { set, written, access } = setUp();
    access.refusal = 'Forbidden';
    await expect(set()).rejects.toMatchObject({ key: 'Forbidden' });
    expect(written).toEqual([]);
  });
});
