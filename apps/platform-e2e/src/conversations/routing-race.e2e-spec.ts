import { randomUUID } from 'node:crypto';
import { createServicesApiApp, ServicesApiConfig } from '@apps/services-api';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServicesApiClient, ServicesApiClient } from '@platform/api-client';
import { loadConfig } from '@platform/config';
import { ConversationFixtures, singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { ConversationPlatform, createInbox, Operator, startConversationPlatform } from './conversation-platform';

const OPERATORS = 8;
const CAPACITY = 3;
const SESSIONS = 40;
const TAKES_PER_OPERATOR = 8;
const CLOSED_MIDWAY = 10;
/** Generous: two replicas on a loaded machine settle many passes; the wait is a bound, not a timing assertion. */
const SETTLE_LIMIT_MS = 110_000;

/**
 * Routing is exact across replicas (docs/conversations.md#routing): two
 * replicas of services-api each run the routing loop, sessions arrive on
 * both at once while the operators race the passes with manual takes on
 * both, and owners close sessions on both. Once it settles, no operator
 * holds more open sessions than the capacity, no session was assigned
 * twice, and no session waits while an operator has room.
 */
describe('routing across two replicas', () => {
  let context: ConversationPlatform;
  let conversations: ConversationFixtures;
  let second: NestFastifyApplication;
  let replicas: ServicesApiClient[];
  let operators: Operator[];
  let inboxID: string;

  beforeAll(async () => {
    context = await startConversationPlatform({ ROUTING_POLL_MS: '50', ROUTING_SWEEP_MS: '3600000' });
    conversations = new ConversationFixtures(context.platform.dataSource);
    second = await createServicesApiApp(loadConfig(ServicesApiConfig, context.platform.env));
    await second.listen(0, '127.0.0.1');
    replicas = [context.platform.api.services, createServicesApiClient((await second.getUrl()).replace('[::1]', '127.0.0.1'))];
    operators = [];
    for (let index = 0; index < OPERATORS; index += 1) {
      const { operatorID } = await context.platform.fixtures.operator();
      await context.platform.fixtures.membership(context.tenantID, operatorID, 'member');
      await conversations.presence(context.tenantID, operatorID, 'online');
      operators.push({ operatorID, authorization: `Bearer ${await context.platform.tokenFor(operatorID)}` });
    }
    inboxID = await createInbox(context, 'Race');
    const stored = await replicas[1].PUT('/v1/tenants/{tenantID}/inboxes/{inboxID}/routing', {
      params: { path: { tenantID: context.tenantID, inboxID } },
      headers: { authorization: context.owner.authorization },
      body: { policy: 'least-loaded', capacity: CAPACITY, operatorIDs: operators.map((operator) => operator.operatorID) },
    });
    expect(stored.response.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await second?.close();
    await context?.close();
  });

  const replica = (index: number) => replicas[index % replicas.length];

  async function queue(index: number): Promise<string> {
    const posted = await replica(index).POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
      params: { path: { tenantID: context.tenantID, inboxID } },
      headers: { authorization: context.channel.authorization },
      body: { contactHandle: `+5511${String(index).padStart(9, '0')}`, channelMessageID: `wamid.${randomUUID()}`, content: 'Olá!' },
    });
    expect(posted.response.status).toBe(201);
    return posted.data!.data.session.sessionID;
  }

  /** Each operator tries to take sessions as they arrive, on either replica: each answer is a take, or a refusal the rules allow. */
  async function race(operator: Operator, round: number, sessionIDs: () => string[]): Promise<void> {
    for (let attempt = 0; attempt < TAKES_PER_OPERATOR; attempt += 1) {
      const known = sessionIDs();
      if (known.length === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      const sessionID = known[(round * 7 + attempt * 13) % known.length];
      const taken = await replica(round + attempt).POST('/v1/tenants/{tenantID}/sessions/{sessionID}/take', {
        params: { path: { tenantID: context.tenantID, sessionID } },
        headers: { authorization: operator.authorization },
      });
      if (taken.response.status !== 200) expect([1943, 1949]).toContain(singleError(taken.error).error_code);
    }
  }

  async function openLoads(): Promise<Map<string, number>> {
    const rows: { operator_id: string; load: number }[] = await context.platform.dataSource.query(
      `SELECT operator_id, count(*)::int AS load FROM sessions WHERE tenant_id = $1 AND inbox_id = $2 AND closed_at IS NULL AND operator_id IS NOT NULL GROUP BY operator_id`,
      [context.tenantID, inboxID],
    );
    return new Map(rows.map((row) => [row.operator_id, row.load]));
  }

  async function queuedCount(): Promise<number> {
    const [{ queued }]: { queued: number }[] = await context.platform.dataSource.query(
      `SELECT count(*)::int AS queued FROM sessions WHERE tenant_id = $1 AND inbox_id = $2 AND closed_at IS NULL AND operator_id IS NULL`,
      [context.tenantID, inboxID],
    );
    return queued;
  }

  /** At any instant, whatever is under way: no operator holds more than the capacity. */
  async function expectWithinCapacity(): Promise<void> {
    const loads = await openLoads();
    expect(Math.max(0, ...loads.values())).toBeLessThanOrEqual(CAPACITY);
  }

  /** Settled: every operator is at capacity (there are more sessions than room), and the rest wait. */
  async function settled(expectedQueued: number): Promise<void> {
    await eventually(
      async () => {
        const loads = await openLoads();
        expect(operators.map((operator) => loads.get(operator.operatorID) ?? 0)).toEqual(operators.map(() => CAPACITY));
        expect(await queuedCount()).toBe(expectedQueued);
      },
      SETTLE_LIMIT_MS,
      100,
    );
  }

  /** Each session's assignments, from its events: one per time it went from queued to assigned. */
  async function assignmentsBySession(): Promise<Map<string, number>> {
    const rows: { session_id: string; assigned: number }[] = await context.platform.dataSource.query(
      `SELECT data->>'sessionID' AS session_id, count(*)::int AS assigned FROM webhook_events
        WHERE tenant_id = $1 AND type = 'session.assigned' AND data->>'inboxID' = $2 GROUP BY 1`,
      [context.tenantID, inboxID],
    );
    return new Map(rows.map((row) => [row.session_id, row.assigned]));
  }

  it('never assigns an operator past capacity nor a session twice, and leaves no session waiting while there is room', async () => {
    const sessionIDs: string[] = [];
    const posting = Promise.all(
      Array.from({ length: SESSIONS }, async (_, index) => {
        sessionIDs.push(await queue(index));
      }),
    );
    await Promise.all([posting, ...operators.map((operator, round) => race(operator, round, () => sessionIDs))]);
    expect(sessionIDs).toHaveLength(SESSIONS);
    await expectWithinCapacity();

    await settled(SESSIONS - OPERATORS * CAPACITY);
    const once = await assignmentsBySession();
    expect([...once.values()].every((count) => count === 1)).toBe(true);
    expect(once.size).toBe(OPERATORS * CAPACITY);
    const events: { automatic: number; manual: number }[] = await context.platform.dataSource.query(
      `SELECT count(*) FILTER (WHERE data->>'assignedBy' = 'routing')::int AS automatic, count(*) FILTER (WHERE data->>'assignedBy' = 'operator')::int AS manual
         FROM webhook_events WHERE tenant_id = $1 AND type = 'session.assigned' AND data->>'inboxID' = $2`,
      [context.tenantID, inboxID],
    );
    expect(events[0].automatic + events[0].manual).toBe(OPERATORS * CAPACITY);

    // Owners close sessions on both replicas at once, while the operators race again: the room goes to the waiting sessions.
    const assigned: { id: string }[] = await context.platform.dataSource.query(
      `SELECT id FROM sessions WHERE tenant_id = $1 AND inbox_id = $2 AND closed_at IS NULL AND operator_id IS NOT NULL ORDER BY id LIMIT $3`,
      [context.tenantID, inboxID, CLOSED_MIDWAY],
    );
    const closing = Promise.all(
      assigned.map(async ({ id }, index) => {
        const closed = await replica(index).POST('/v1/tenants/{tenantID}/sessions/{sessionID}/close', {
          params: { path: { tenantID: context.tenantID, sessionID: id } },
          headers: { authorization: context.owner.authorization },
        });
        expect(closed.response.status).toBe(200);
      }),
    );
    const open = sessionIDs.filter((id) => !assigned.some((closed) => closed.id === id));
    await Promise.all([closing, ...operators.map((operator, round) => race(operator, round + 1, () => open))]);
    await expectWithinCapacity();

    await settled(SESSIONS - CLOSED_MIDWAY - OPERATORS * CAPACITY);
    const again = await assignmentsBySession();
    expect([...again.values()].every((count) => count === 1)).toBe(true);
    expect(again.size).toBe(OPERATORS * CAPACITY + CLOSED_MIDWAY);
  }, 300_000);
});
