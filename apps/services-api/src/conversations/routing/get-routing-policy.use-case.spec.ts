import { fake, FakeTenantAccess } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { INBOX_ID, OPERATOR_ID, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import { GetRoutingPolicyUseCase } from './get-routing-policy.use-case';
import { DEFAULT_CAPACITY, RoutingPolicy } from './routing-policy';
import type { RoutingRepository } from './routing.repository';

const stored: RoutingPolicy = { inboxID: INBOX_ID, policy: 'round-robin', capacity: 2, operatorIDs: [OPERATOR_ID], requeueOfflineAfterSeconds: null };

/** `found`: the stored policy, null for a live inbox without one, undefined for no live inbox. */
function setUp(found: RoutingPolicy | null | undefined) {
  const access = new FakeTenantAccess();
  const useCase = new GetRoutingPolicyUseCase(access.asAccess(), fake<RoutingRepository>({ storedPolicy: async () => found }));
  const get = () => useCase.execute({ principal: { kind: 'operator', operatorID: OPERATOR_ID }, tenantID: TENANT_ID, inboxID: INBOX_ID });
  return { get, access };
}

describe('GetRoutingPolicyUseCase', () => {
  it("answers any operator of the tenant with the inbox's stored policy", async () => {
    const { get, access } = setUp(stored);
    expect(await get()).toEqual(stored);
    expect(access.checks).toEqual([{ tenantID: TENANT_ID, requirement: { tenantNotFoundIs404: true } }]);
  });

  it('answers manual, with the default capacity and nobody named, for a live inbox whose policy was never set', async () => {
    expect(await setUp(null).get()).toEqual({ inboxID: INBOX_ID, policy: 'manual', capacity: DEFAULT_CAPACITY, operatorIDs: [], requeueOfflineAfterSeconds: null });
  });

  it('answers an inbox that is not live with 404 1940', async () => {
    await expect(setUp(undefined).get()).rejects.toMatchObject({ key: 'InboxNotFound' });
  });
});
