import { ConversationFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RoutingPolicy } from './routing-policy';
import { RoutingRepository } from './routing.repository';

/**
 * Routing's SQL against PostgreSQL: policies kept per live inbox of the
 * tenant, who is eligible and in which order, which session a pass takes
 * next and which it gives back, and the requests (with their generation and
 * lease) that the presence trigger and the changes record. Nothing of
 * another tenant crosses over.
 */
describe('RoutingRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let routing: RoutingRepository;
  let fixtures: FixtureBuilder;
  let conversations: ConversationFixtures;
  let tenantID: string;
  let otherTenantID: string;
  let inboxID: string;
  let manualInboxID: string;
  let contactID: string;
  const operators: Record<'ana' | 'bia' | 'caio' | 'dani' | 'outsider', string> = { ana: '', bia: '', caio: '', dani: '', outsider: '' };

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(4));
    routing = new RoutingRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
    conversations = new ConversationFixtures(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    for (const name of Object.keys(operators) as (keyof typeof operators)[]) operators[name] = (await fixtures.operator()).operatorID;
    for (const name of ['ana', 'bia', 'caio', 'dani'] as const) await fixtures.membership(tenantID, operators[name], 'member');
    await fixtures.membership(otherTenantID, operators.outsider, 'member');
    contactID = await conversations.contact(tenantID);
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    await dataSource.query('DELETE FROM sessions');
    await dataSource.query('DELETE FROM routing_requests');
    await dataSource.query('DELETE FROM routing_operator_turns');
    await dataSource.query('DELETE FROM operator_presence');
    await dataSource.query('DELETE FROM inbox_routing_policies');
    inboxID = await conversations.inbox(tenantID, { name: 'Routed' });
    manualInboxID = await conversations.inbox(tenantID, { name: 'Manual' });
  });

  const policy = (overrides: Partial<RoutingPolicy> = {}): RoutingPolicy => ({
    inboxID,
    policy: 'least-loaded',
    capacity: 2,
    operatorIDs: [],
    requeueOfflineAfterSeconds: null,
    ...overrides,
  });
  const store = (stored: RoutingPolicy, tenant = tenantID) => routing.transaction((runner) => routing.store(runner, tenant, stored));
  const nameOf = (operatorID: string) => Object.entries(operators).find(([, id]) => id === operatorID)![0];
  const eligible = async (ranked: RoutingPolicy) => (await routing.transaction((runner) => routing.eligible(runner, tenantID, ranked))).map(nameOf);
  const open = (operatorID: string | null, options: { inbox?: string; createdAt?: Date } = {}) =>
    conversations.session(tenantID, { contactID, inboxID: options.inbox ?? inboxID, operatorID, createdAt: options.createdAt });
  const requests = async () =>
    (await dataSource.query('SELECT tenant_id, generation::int AS generation, due_at > clock_timestamp() AS later FROM routing_requests ORDER BY tenant_id')) as {
      tenant_id: string;
      generation: number;
      later: boolean;
    }[];

  describe('policies', () => {
    it("stores and replaces a live inbox's policy, never another tenant's inbox or a removed one", async () => {
      expect(await routing.storedPolicy(tenantID, inboxID)).toBeNull();
      expect(await store(policy({ operatorIDs: [operators.ana], requeueOfflineAfterSeconds: 60 }))).toBe(true);
      expect(await routing.storedPolicy(tenantID, inboxID)).toEqual(policy({ operatorIDs: [operators.ana], requeueOfflineAfterSeconds: 60 }));
      expect(await store(policy({ policy: 'round-robin', capacity: 7 }))).toBe(true);
      expect(await routing.storedPolicy(tenantID, inboxID)).toEqual(policy({ policy: 'round-robin', capacity: 7 }));

      expect(await store(policy(), otherTenantID)).toBe(false);
      expect(await routing.storedPolicy(otherTenantID, inboxID)).toBeUndefined();
      await dataSource.query('UPDATE inboxes SET removed_at = now() WHERE id = $1', [manualInboxID]);
      expect(await store(policy({ inboxID: manualInboxID }))).toBe(false);
      expect(await routing.storedPolicy(tenantID, manualInboxID)).toBeUndefined();
    });

    it("names the operators who are not members of the tenant, another tenant's included", async () => {
      expect(await routing.nonMembers(tenantID, [operators.ana, operators.outsider])).toEqual([operators.outsider]);
      expect(await routing.nonMembers(tenantID, [operators.ana, operators.bia])).toEqual([]);
      expect(await routing.nonMembers(tenantID, [])).toEqual([]);
    });

    it('lists only routed policies of live inboxes', async () => {
      await store(policy());
      await store(policy({ inboxID: manualInboxID, policy: 'manual' }));
      expect((await routing.transaction((runner) => routing.routedPolicies(runner, tenantID))).map((each) => each.inboxID)).toEqual([inboxID]);
      await dataSource.query('UPDATE inboxes SET removed_at = now() WHERE id = $1', [inboxID]);
      expect(await routing.transaction((runner) => routing.routedPolicies(runner, tenantID))).toEqual([]);
    });
  });

  describe('eligible operators', () => {
    beforeEach(async () => {
      for (const name of ['ana', 'bia', 'caio'] as const) await conversations.presence(tenantID, operators[name], 'online');
      await conversations.presence(tenantID, operators.dani, 'busy');
      await conversations.presence(otherTenantID, operators.outsider, 'online');
    });

    it('least-loaded: online members under capacity, fewest open sessions (tenant-wide) first, then the longest wait, then the id', async () => {
      await open(operators.ana);
      await open(operators.ana, { inbox: manualInboxID });
      await open(operators.bia, { inbox: manualInboxID });
      await conversations.session(tenantID, { contactID, inboxID, operatorID: operators.caio, closedAt: new Date() });
      // ana is at capacity (2, one of them on another inbox); bia has one; caio none (a closed session does not count).
      expect(await eligible(policy())).toEqual(['caio', 'bia']);
      expect(await eligible(policy({ capacity: 3 }))).toEqual(['caio', 'bia', 'ana']);
    });

    it('round-robin: whoever waited longest since their last assignment, never assigned first, whatever their load', async () => {
      await open(operators.caio);
      await dataSource.query(`INSERT INTO routing_operator_turns (tenant_id, operator_id, last_assigned_at) VALUES ($1, $2, now() - interval '1 minute'), ($1, $3, now())`, [
        tenantID,
        operators.ana,
        operators.bia,
      ]);
      expect(await eligible(policy({ policy: 'round-robin', capacity: 5 }))).toEqual(['caio', 'ana', 'bia']);
      await routing.transaction((runner) => routing.recordTurn(runner, tenantID, operators.caio));
      expect(await eligible(policy({ policy: 'round-robin', capacity: 5 }))).toEqual(['ana', 'bia', 'caio']);
    });

    it("keeps to the operators a policy names, members only, never another tenant's", async () => {
      expect(await eligible(policy({ operatorIDs: [operators.bia, operators.dani, operators.outsider] }))).toEqual(['bia']);
      await dataSource.query('DELETE FROM memberships WHERE tenant_id = $1 AND operator_id = $2', [tenantID, operators.bia]);
      expect(await eligible(policy({ operatorIDs: [operators.bia] }))).toEqual([]);
      await fixtures.membership(tenantID, operators.bia, 'member');
    });

    it("counts an operator's open sessions of the tenant only", async () => {
      await open(operators.ana);
      await open(operators.ana, { inbox: manualInboxID });
      await conversations.session(tenantID, { contactID, inboxID, operatorID: operators.ana, closedAt: new Date() });
      expect(await routing.transaction((runner) => routing.openLoad(runner, tenantID, operators.ana))).toBe(2);
      expect(await routing.transaction((runner) => routing.openLoad(runner, otherTenantID, operators.ana))).toBe(0);
    });
  });

  describe('the sessions a pass takes', () => {
    it('takes the oldest queued session of the routed inboxes, and locks it only while it is still queued', async () => {
      await open(operators.ana, { createdAt: new Date('2026-01-01T00:00:00Z') });
      await open(null, { inbox: manualInboxID, createdAt: new Date('2026-01-01T00:00:01Z') });
      const older = await open(null, { createdAt: new Date('2026-01-02T00:00:00Z') });
      await open(null, { createdAt: new Date('2026-01-03T00:00:00Z') });
      expect(await routing.transaction((runner) => routing.nextQueued(runner, tenantID, [inboxID]))).toBe(older);
      expect(await routing.transaction((runner) => routing.nextQueued(runner, otherTenantID, [inboxID]))).toBeUndefined();
      expect(await routing.transaction((runner) => routing.lockQueued(runner, tenantID, older))).toEqual({ sessionID: older, inboxID });
      await dataSource.query('UPDATE sessions SET operator_id = $2 WHERE id = $1', [older, operators.bia]);
      expect(await routing.transaction((runner) => routing.lockQueued(runner, tenantID, older))).toBeUndefined();
    });

    it('gives back the sessions of an assignee offline past the limit (or never seen), not of one online or offline for less', async () => {
      await store(policy({ requeueOfflineAfterSeconds: 60 }));
      const longGone = new Date(Date.now() - 3_600_000);
      await conversations.presence(tenantID, operators.ana, 'offline', longGone);
      await conversations.presence(tenantID, operators.bia, 'offline', new Date());
      await conversations.presence(tenantID, operators.caio, 'away', longGone);
      const stranded = await open(operators.ana, { createdAt: new Date('2026-01-01T00:00:00Z') });
      await open(operators.bia);
      await open(operators.caio);
      const unseen = await open(operators.dani, { createdAt: new Date('2026-01-02T00:00:00Z') });
      const next = () => routing.transaction((runner) => routing.nextStranded(runner, tenantID, [inboxID]));
      expect(await next()).toBe(stranded);
      expect(await routing.transaction((runner) => routing.lockStranded(runner, tenantID, [inboxID], stranded))).toEqual({ sessionID: stranded, operatorID: operators.ana, offlineSince: longGone });

      await routing.transaction((runner) => routing.requeue(runner, tenantID, stranded));
      const [requeued] = (await dataSource.query('SELECT operator_id, operator_participants_ids, queued_at IS NOT NULL AS queued FROM sessions WHERE id = $1', [stranded])) as {
        operator_id: string | null;
        operator_participants_ids: string[];
        queued: boolean;
      }[];
      expect(requeued).toEqual({ operator_id: null, operator_participants_ids: [operators.ana], queued: true });
      expect(await next()).toBe(unseen);
      expect(await routing.transaction((runner) => routing.lockStranded(runner, tenantID, [inboxID], unseen))).toMatchObject({ offlineSince: null });
      // The inbox without a limit gives nothing back.
      await store(policy({ requeueOfflineAfterSeconds: null }));
      expect(await next()).toBeUndefined();
    });
  });

  describe('requests', () => {
    it('records one for a tenant with a routed inbox only; a second raises the generation', async () => {
      expect(await routing.transaction((runner) => routing.request(runner, tenantID))).toBe(false);
      await store(policy({ inboxID: manualInboxID, policy: 'manual' }));
      expect(await routing.transaction((runner) => routing.request(runner, tenantID))).toBe(false);
      await store(policy());
      expect(await routing.transaction((runner) => routing.request(runner, tenantID))).toBe(true);
      expect(await routing.transaction((runner) => routing.request(runner, tenantID))).toBe(true);
      expect(await requests()).toEqual([{ tenant_id: tenantID, generation: 2, later: false }]);
    });

    it('is claimed once under a lease, and removed only if no other came while the pass ran', async () => {
      await store(policy());
      await routing.transaction((runner) => routing.request(runner, tenantID));
      const claimed = (await routing.claim(60))!;
      expect(claimed.tenantID).toBe(tenantID);
      expect(await routing.claim(60)).toBeUndefined();
      // A request while the pass runs: the row stays, due at once.
      await routing.transaction((runner) => routing.request(runner, tenantID));
      await routing.finish(tenantID, claimed.generation, false);
      expect(await requests()).toEqual([{ tenant_id: tenantID, generation: 2, later: false }]);
      const again = (await routing.claim(60))!;
      await routing.finish(tenantID, again.generation, false);
      expect(await requests()).toEqual([]);
    });

    it('a pass that stopped at its bound leaves its request due at once', async () => {
      await store(policy());
      await routing.transaction((runner) => routing.request(runner, tenantID));
      const claimed = (await routing.claim(60))!;
      await routing.finish(tenantID, claimed.generation, true);
      expect(await requests()).toEqual([{ tenant_id: tenantID, generation: 1, later: false }]);
    });

    it('are recorded by presence: coming online at once, going offline once the shortest requeue limit has passed', async () => {
      await conversations.presence(tenantID, operators.ana, 'online');
      expect(await requests()).toEqual([]);
      await store(policy());
      await conversations.presence(tenantID, operators.ana, 'online');
      expect(await requests()).toEqual([{ tenant_id: tenantID, generation: 1, later: false }]);
      await dataSource.query('DELETE FROM routing_requests');
      // Offline with no requeue limit: nothing to do.
      await conversations.presence(tenantID, operators.ana, 'offline');
      await conversations.presence(tenantID, operators.ana, 'away');
      expect(await requests()).toEqual([]);
      await store(policy({ requeueOfflineAfterSeconds: 600 }));
      await dataSource.query('DELETE FROM routing_requests');
      await conversations.presence(tenantID, operators.ana, 'offline');
      expect(await requests()).toEqual([{ tenant_id: tenantID, generation: 1, later: true }]);
    });

    it('the sweep requests a pass for tenants with a queued session in a routed inbox or a requeue limit', async () => {
      await store(policy());
      expect(await routing.requestSweep()).toBe(0);
      await open(null, { inbox: manualInboxID });
      expect(await routing.requestSweep()).toBe(0);
      await open(null);
      expect(await routing.requestSweep()).toBe(1);
      await dataSource.query('DELETE FROM sessions');
      await dataSource.query('DELETE FROM routing_requests');
      await store(policy({ requeueOfflineAfterSeconds: 60 }));
      await dataSource.query('DELETE FROM routing_requests');
      expect(await routing.requestSweep()).toBe(1);
    });
  });
});
