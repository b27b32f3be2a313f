import { randomUUID } from 'node:crypto';
import { ConversationFixtures, singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { ConversationPlatform, createInbox, Operator, startConversationPlatform } from './conversation-platform';

type RoutingBody = { policy: 'manual' | 'least-loaded' | 'round-robin'; capacity?: number; operatorIDs?: string[]; requeueOfflineAfterSeconds?: number | null };

/**
 * Automatic assignment (docs/conversations.md#routing) through HTTP: an
 * owner sets an inbox's policy, the channel posts, and the pass assigns the
 * queued session to the operator the policy ranks first, as a manual
 * assignment would (same event, same notification). The sweep is set far
 * beyond the suite's length, so every assignment here comes from the change
 * that asked for a pass: a session queued or closed, a policy stored, an
 * operator coming online, an assignee offline past the limit.
 */
describe('routing', () => {
  let context: ConversationPlatform;
  let conversations: ConversationFixtures;
  const api = () => context.platform.api.services;

  beforeAll(async () => {
    context = await startConversationPlatform({ ROUTING_POLL_MS: '100', ROUTING_SWEEP_MS: '3600000' });
    conversations = new ConversationFixtures(context.platform.dataSource);
  });
  afterAll(() => context?.close());

  /** A new member of the tenant (each test its own, so loads and turns start at nothing). */
  async function member(status?: 'online' | 'busy' | 'away' | 'offline'): Promise<Operator> {
    const { operatorID } = await context.platform.fixtures.operator();
    await context.platform.fixtures.membership(context.tenantID, operatorID, 'member');
    if (status) await conversations.presence(context.tenantID, operatorID, status);
    return { operatorID, authorization: `Bearer ${await context.platform.tokenFor(operatorID)}` };
  }

  const setRouting = (inboxID: string, body: RoutingBody, as: Operator = context.owner) =>
    api().PUT('/v1/tenants/{tenantID}/inboxes/{inboxID}/routing', {
      params: { path: { tenantID: context.tenantID, inboxID } },
      headers: { authorization: as.authorization },
      body: body as never,
    });

  const readRouting = (inboxID: string, as: Operator = context.member) =>
    api().GET('/v1/tenants/{tenantID}/inboxes/{inboxID}/routing', { params: { path: { tenantID: context.tenantID, inboxID } }, headers: { authorization: as.authorization } });

  async function routedInbox(body: RoutingBody): Promise<string> {
    const inboxID = await createInbox(context, `Routed ${randomUUID().slice(0, 8)}`);
    const stored = await setRouting(inboxID, body);
    expect(stored.response.status).toBe(200);
    return inboxID;
  }

  /** The channel posts a contact's first message: a new queued session; answers its id. */
  async function queue(inboxID: string): Promise<string> {
    const posted = await api().POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
      params: { path: { tenantID: context.tenantID, inboxID } },
      headers: { authorization: context.channel.authorization },
      body: { contactHandle: `+55119${Math.floor(Math.random() * 1e8)}`, channelMessageID: `wamid.${randomUUID()}`, content: 'Olá!' },
    });
    expect(posted.response.status).toBe(201);
    return posted.data!.data.session.sessionID;
  }

  const session = async (sessionID: string) =>
    (await api().GET('/v1/tenants/{tenantID}/sessions/{sessionID}', { params: { path: { tenantID: context.tenantID, sessionID } }, headers: { authorization: context.owner.authorization } })).data!
      .data;

  const assigneeOf = async (sessionID: string) => (await session(sessionID)).operatorID;

  async function eventsOf(sessionID: string, type: string): Promise<Record<string, unknown>[]> {
    const rows: { data: Record<string, unknown> }[] = await context.platform.dataSource.query(
      `SELECT data FROM webhook_events WHERE tenant_id = $1 AND type = $2 AND data->>'sessionID' = $3 ORDER BY occurred_at, id`,
      [context.tenantID, type, sessionID],
    );
    return rows.map((row) => row.data);
  }

  const act = (path: 'take' | 'assign' | 'transfer' | 'close', sessionID: string, as: Operator, body?: { operatorID: string; override?: boolean }) =>
    api().POST(`/v1/tenants/{tenantID}/sessions/{sessionID}/${path}` as '/v1/tenants/{tenantID}/sessions/{sessionID}/assign', {
      params: { path: { tenantID: context.tenantID, sessionID } },
      headers: { authorization: as.authorization },
      body: body as never,
    });

  describe('the policy routes', () => {
    it('answer manual for an inbox never set, store what an owner puts, and audit it', async () => {
      const inboxID = await createInbox(context, 'Policy read');
      const never = await readRouting(inboxID);
      expect(never.response.status).toBe(200);
      expect(never.data!.data).toEqual({ inboxID, policy: 'manual', capacity: 5, operatorIDs: [], requeueOfflineAfterSeconds: null });

      const named = await member();
      const stored = await setRouting(inboxID, { policy: 'round-robin', capacity: 3, operatorIDs: [named.operatorID.toUpperCase()], requeueOfflineAfterSeconds: 600 });
      expect(stored.response.status).toBe(200);
      const expected = { inboxID, policy: 'round-robin', capacity: 3, operatorIDs: [named.operatorID], requeueOfflineAfterSeconds: 600 };
      expect(stored.data!.data).toEqual(expected);
      expect((await readRouting(inboxID)).data!.data).toEqual(expected);

      const audited: { actor_id: string; summary: Record<string, unknown> }[] = await context.platform.dataSource.query(
        `SELECT actor_id, summary FROM audit_events WHERE tenant_id = $1 AND action = 'inbox.routingChanged' AND target_id = $2`,
        [context.tenantID, inboxID],
      );
      expect(audited).toEqual([{ actor_id: context.owner.operatorID, summary: { policy: 'round-robin', capacity: 3, operatorIDs: [named.operatorID], requeueOfflineAfterSeconds: 600 } }]);

      // A PUT replaces the whole policy: what it leaves out takes its default.
      expect((await setRouting(inboxID, { policy: 'least-loaded' })).data!.data).toEqual({ inboxID, policy: 'least-loaded', capacity: 5, operatorIDs: [], requeueOfflineAfterSeconds: null });
    });

    it('refuse bad input with catalog codes and store nothing', async () => {
      const inboxID = await createInbox(context, 'Policy refusals');
      const refusals: [RoutingBody | Record<string, unknown>, number, number][] = [
        [{ policy: 'random' }, 400, 1002],
        [{ policy: 'least-loaded', capacity: 0 }, 400, 1002],
        [{ policy: 'least-loaded', capacity: 1001 }, 400, 1002],
        [{ policy: 'least-loaded', capacity: 2.5 }, 400, 1002],
        [{ policy: 'least-loaded', requeueOfflineAfterSeconds: 0 }, 400, 1002],
        [{ policy: 'least-loaded', requeueOfflineAfterSeconds: 604_801 }, 400, 1002],
        [{ policy: 'least-loaded', operatorIDs: ['not-a-uuid'] }, 400, 1002],
        [{ policy: 'least-loaded', operatorIDs: [context.member.operatorID, context.member.operatorID] }, 400, 1002],
        [{ policy: 'least-loaded', weights: {} }, 400, 1002],
        // An operator of another tenant, and one of no tenant at all.
        [{ policy: 'least-loaded', operatorIDs: [context.member.operatorID, context.otherOwner.operatorID] }, 404, 1990],
        [{ policy: 'least-loaded', operatorIDs: [randomUUID()] }, 404, 1990],
      ];
      for (const [body, status, code] of refusals) {
        const refused = await setRouting(inboxID, body as RoutingBody);
        expect({ body, status: refused.response.status, code: singleError(refused.error).error_code }).toEqual({ body, status, code });
      }
      expect((await readRouting(inboxID)).data!.data.policy).toBe('manual');

      expect(singleError((await setRouting(inboxID, { policy: 'least-loaded' }, context.member)).error).error_code).toBe(1004);
      expect(singleError((await setRouting(randomUUID(), { policy: 'least-loaded' })).error).error_code).toBe(1940);
      const otherTenants = await api().PUT('/v1/tenants/{tenantID}/inboxes/{inboxID}/routing', {
        params: { path: { tenantID: context.otherTenantID, inboxID } },
        headers: { authorization: context.otherOwner.authorization },
        body: { policy: 'least-loaded' },
      });
      expect(singleError(otherTenants.error).error_code).toBe(1940);
      expect((await readRouting(inboxID)).data!.data.policy).toBe('manual');
    });
  });

  it('least-loaded assigns a queued session to the online operator with the fewest open sessions, as a manual assignment would', async () => {
    const busier = await member('online');
    const idler = await member('online');
    const away = await member('away');
    // busier already has an open session (of another, manual inbox): tenant-wide load.
    const manualInbox = await createInbox(context, 'Manual');
    const held = await queue(manualInbox);
    expect((await act('take', held, busier)).response.status).toBe(200);

    const inboxID = await routedInbox({ policy: 'least-loaded', capacity: 5, operatorIDs: [busier.operatorID, idler.operatorID, away.operatorID] });
    const sessionID = await queue(inboxID);
    await eventually(async () => expect(await assigneeOf(sessionID)).toBe(idler.operatorID));

    const assigned = await eventsOf(sessionID, 'session.assigned');
    expect(assigned).toEqual([expect.objectContaining({ operatorID: idler.operatorID, assignedBy: 'routing', assignedByOperatorID: idler.operatorID })]);
    // The assignee is notified as when an owner assigns to them.
    await eventually(async () => {
      const counts = await api().GET('/v1/tenants/{tenantID}/notifications', { params: { path: { tenantID: context.tenantID } }, headers: { authorization: idler.authorization } });
      expect(counts.data).toMatchObject({ assignment: 1 });
    });
    // A manual take says so too.
    expect(await eventsOf(held, 'session.assigned')).toEqual([expect.objectContaining({ assignedBy: 'operator', assignedByOperatorID: busier.operatorID })]);

    // Now both have one: the next goes to whoever waited longest since their last assignment (busier took theirs first).
    const next = await queue(inboxID);
    await eventually(async () => expect(await assigneeOf(next)).toBe(busier.operatorID));
  });

  it('round-robin takes turns, whoever waited longest since their last assignment first', async () => {
    const operators = [await member('online'), await member('online'), await member('online')];
    const inboxID = await routedInbox({ policy: 'round-robin', capacity: 10, operatorIDs: operators.map((each) => each.operatorID) });
    const assignees: string[] = [];
    for (let turn = 0; turn < 6; turn += 1) {
      const sessionID = await queue(inboxID);
      assignees.push(await eventually(async () => {
        const assignee = await assigneeOf(sessionID);
        expect(assignee).not.toBeNull();
        return assignee!;
      }));
    }
    // Never assigned before: ties go by id; then the same rotation again.
    const rotation = operators.map((each) => each.operatorID).sort();
    expect(assignees).toEqual([...rotation, ...rotation]);
  });

  it('never assigns past capacity; a queued session is assigned once its operator gains room or another comes online', async () => {
    const only = await member('online');
    const inboxID = await routedInbox({ policy: 'least-loaded', capacity: 1, operatorIDs: [only.operatorID] });
    const first = await queue(inboxID);
    await eventually(async () => expect(await assigneeOf(first)).toBe(only.operatorID));
    const second = await queue(inboxID);

    // A barrier: a pass assigns oldest first, so once a newer session of another routed inbox is assigned, the second was looked at.
    const witness = await member('online');
    const witnessInbox = await routedInbox({ policy: 'least-loaded', capacity: 1, operatorIDs: [witness.operatorID] });
    const newer = await queue(witnessInbox);
    await eventually(async () => expect(await assigneeOf(newer)).toBe(witness.operatorID));
    expect(await assigneeOf(second)).toBeNull();

    // Closing the first gives the operator room: the second is theirs.
    expect((await act('close', first, only)).response.status).toBe(200);
    await eventually(async () => expect(await assigneeOf(second)).toBe(only.operatorID));

    // A third waits for anyone; a member named by the policy coming online takes it.
    const later = await member('offline');
    expect((await setRouting(inboxID, { policy: 'least-loaded', capacity: 1, operatorIDs: [only.operatorID, later.operatorID] })).response.status).toBe(200);
    const third = await queue(inboxID);
    const barrier = await queue(witnessInbox);
    expect((await act('close', newer, witness)).response.status).toBe(200);
    await eventually(async () => expect(await assigneeOf(barrier)).toBe(witness.operatorID));
    expect(await assigneeOf(third)).toBeNull();
    await conversations.presence(context.tenantID, later.operatorID, 'online');
    await eventually(async () => expect(await assigneeOf(third)).toBe(later.operatorID));
  });

  it('a transfer gives the previous assignee room: what waited is theirs', async () => {
    const only = await member('online');
    const elsewhere = await member('offline');
    const inboxID = await routedInbox({ policy: 'least-loaded', capacity: 1, operatorIDs: [only.operatorID] });
    const first = await queue(inboxID);
    await eventually(async () => expect(await assigneeOf(first)).toBe(only.operatorID));
    const second = await queue(inboxID);
    const transferred = await act('transfer', first, only, { operatorID: elsewhere.operatorID });
    expect(transferred.response.status).toBe(200);
    await eventually(async () => expect(await assigneeOf(second)).toBe(only.operatorID));
    expect(await assigneeOf(first)).toBe(elsewhere.operatorID);
  });

  it('a larger capacity assigns what waited at once', async () => {
    const only = await member('online');
    const inboxID = await routedInbox({ policy: 'round-robin', capacity: 1, operatorIDs: [only.operatorID] });
    const first = await queue(inboxID);
    await eventually(async () => expect(await assigneeOf(first)).toBe(only.operatorID));
    const second = await queue(inboxID);
    expect((await setRouting(inboxID, { policy: 'round-robin', capacity: 2, operatorIDs: [only.operatorID] })).response.status).toBe(200);
    await eventually(async () => expect(await assigneeOf(second)).toBe(only.operatorID));
  });

  it('gives back to the queue the sessions of an assignee offline past the limit, and assigns them again', async () => {
    const leaving = await member('online');
    const inboxID = await routedInbox({ policy: 'least-loaded', capacity: 5, operatorIDs: [leaving.operatorID], requeueOfflineAfterSeconds: 1 });
    const sessionID = await queue(inboxID);
    await eventually(async () => expect(await assigneeOf(sessionID)).toBe(leaving.operatorID));

    const offlineSince = new Date(Date.now() - 3_600_000);
    await conversations.presence(context.tenantID, leaving.operatorID, 'offline', offlineSince);
    await eventually(async () => expect(await eventsOf(sessionID, 'session.requeued')).toHaveLength(1));
    const [requeued] = await eventsOf(sessionID, 'session.requeued');
    expect(requeued).toMatchObject({ previousOperatorID: leaving.operatorID, offlineSince: offlineSince.toISOString(), operatorID: null });
    // Queued again; the previous assignee stays a participant.
    expect(await session(sessionID)).toMatchObject({ sessionState: 'queued', operatorID: null, operatorParticipantsIDs: [leaving.operatorID] });

    const taker = await member('online');
    expect((await setRouting(inboxID, { policy: 'least-loaded', capacity: 5, operatorIDs: [leaving.operatorID, taker.operatorID], requeueOfflineAfterSeconds: 1 })).response.status).toBe(200);
    await eventually(async () => expect(await assigneeOf(sessionID)).toBe(taker.operatorID));
  });

  it('refuses a manual take or assign at capacity on a routed inbox (409 1949) unless an owner overrides; a manual inbox answers as before', async () => {
    const full = await member('offline');
    const nobody = await member('offline');
    // Nobody eligible is online: sessions of this inbox stay queued for the manual routes.
    const inboxID = await routedInbox({ policy: 'least-loaded', capacity: 1, operatorIDs: [nobody.operatorID] });
    const held = await queue(inboxID);
    expect((await act('take', held, full)).response.status).toBe(200);

    const waiting = await queue(inboxID);
    const taken = await act('take', waiting, full);
    expect(taken.response.status).toBe(409);
    expect(singleError(taken.error)).toMatchObject({ error_code: 1949, error: 'OperatorAtCapacityError', statusCode: 409 });
    const assigned = await act('assign', waiting, context.owner, { operatorID: full.operatorID });
    expect(assigned.response.status).toBe(409);
    expect(singleError(assigned.error).error_code).toBe(1949);
    expect(await assigneeOf(waiting)).toBeNull();

    // A member cannot override; an owner can.
    const spare = await member('offline');
    const moved = await act('take', waiting, spare);
    expect(moved.response.status).toBe(200);
    const refusedOverride = await act('transfer', waiting, spare, { operatorID: full.operatorID, override: true });
    expect(singleError(refusedOverride.error).error_code).toBe(1004);
    const refusedTransfer = await act('transfer', waiting, spare, { operatorID: full.operatorID });
    expect(singleError(refusedTransfer.error).error_code).toBe(1949);
    const overridden = await act('transfer', waiting, context.owner, { operatorID: full.operatorID, override: true });
    expect(overridden.response.status).toBe(200);
    expect(await assigneeOf(waiting)).toBe(full.operatorID);

    // On a manual inbox the same operator, now over the routed capacity, still takes a session.
    const manualInbox = await createInbox(context, 'Still manual');
    const manual = await queue(manualInbox);
    expect((await act('take', manual, full)).response.status).toBe(200);
  });
});
