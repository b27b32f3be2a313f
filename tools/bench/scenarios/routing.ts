import { randomUUID } from 'node:crypto';
import { createDataSource } from '@platform/database';
import { ConversationFixtures, FixtureBuilder } from '@platform/testing';
import { BenchContext } from '../context';
import { startProcess, stopProcess, waitForHttp } from '../harness';

/** Queued sessions posted (BENCH_ROUTING_SESSIONS). */
const SESSIONS = Number(process.env.BENCH_ROUTING_SESSIONS ?? 400);
/** Online operators of the routed inbox (BENCH_ROUTING_OPERATORS). */
const OPERATORS = Number(process.env.BENCH_ROUTING_OPERATORS ?? 50);
/** Capacity of the policy: with the defaults there is room for every session. */
const CAPACITY = Number(process.env.BENCH_ROUTING_CAPACITY ?? 10);
const REPLICAS = 2;
const CONNECTIONS = 4;
/** A bound on the wait, far above a healthy run, so a broken run ends with what was left. */
const SETTLE_LIMIT_MS = 300_000;

/**
 * Routing (docs/conversations.md#routing): N queued sessions posted over
 * HTTP to two services-api replicas at once, M online operators under a
 * least-loaded policy; the time from the first post until every session
 * that has room is assigned, and the invariants checked once settled (no
 * operator past capacity, no session assigned twice).
 */
export async function routing(context: BenchContext): Promise<void> {
  const say = (text: string) => process.stdout.write(`${text}\n`);
  const dataSource = createDataSource({ url: context.databaseUrl, poolSize: 4, applicationName: 'bench' });
  await dataSource.initialize();
  const replicas: Awaited<ReturnType<typeof startProcess>>[] = [];
  try {
    const fixtures = new FixtureBuilder(dataSource);
    const conversations = new ConversationFixtures(dataSource);
    const tenantID = await fixtures.tenant('Bench routing tenant');
    const operatorIDs: string[] = (
      await dataSource.query(
        `WITH made AS (
           INSERT INTO operators (email, firstname, password_hash)
           SELECT 'bench-routing-' || g || '-' || $2 || '@example.com', 'Operator ' || g, 'not-a-hash' FROM generate_series(1, $3::int) g RETURNING id)
         INSERT INTO memberships (tenant_id, operator_id, role) SELECT $1, id, 'member' FROM made RETURNING operator_id`,
        [tenantID, randomUUID(), OPERATORS],
      )
    ).map((row: { operator_id: string }) => row.operator_id);
    for (const operatorID of operatorIDs) await conversations.presence(tenantID, operatorID, 'online');
    const plugin = await fixtures.plugin({ name: 'Bench channel' });
    const connection = await fixtures.connection(tenantID, plugin.pluginID);
    const inboxID = await conversations.inbox(tenantID, { name: 'Bench routed', pluginConnectionID: connection.pluginConnectionID });
    await dataSource.query(`INSERT INTO inbox_routing_policies (inbox_id, tenant_id, policy, capacity) VALUES ($1, $2, 'least-loaded', $3)`, [inboxID, tenantID, CAPACITY]);

    const ports = Array.from({ length: REPLICAS }, (_, index) => context.portBase + index);
    for (const port of ports) replicas.push(await startProcess('dist/apps/services-api/src/main.js', { ...context.env, SERVICES_API_PORT: String(port), ROUTING_POLL_MS: '100' }));
    for (const port of ports) await waitForHttp(`http://127.0.0.1:${port}/health/ready`);

    const expected = Math.min(SESSIONS, OPERATORS * CAPACITY);
    const assignedCount = async () =>
      ((await dataSource.query(`SELECT count(*)::int AS n FROM sessions WHERE inbox_id = $1 AND operator_id IS NOT NULL AND closed_at IS NULL`, [inboxID])) as { n: number }[])[0].n;

    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < SESSIONS) {
          const index = next++;
          const response = await fetch(`http://127.0.0.1:${ports[index % REPLICAS]}/v1/tenants/${tenantID}/inboxes/${inboxID}/messages`, {
            method: 'POST',
            headers: { authorization: connection.authorization, 'content-type': 'application/json' },
            body: JSON.stringify({ contactHandle: `+55119${String(index).padStart(8, '0')}`, channelMessageID: `bench.routing.${index}`, content: 'Olá!' }),
          });
          if (response.status !== 201) throw new Error(`inbound post: ${response.status} ${await response.text()}`);
        }
      }),
    );
    const posted = performance.now() - started;
    const deadline = Date.now() + SETTLE_LIMIT_MS;
    while ((await assignedCount()) < expected) {
      if (Date.now() > deadline) throw new Error(`routing did not settle: ${await assignedCount()} of ${expected} sessions assigned`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const settled = performance.now() - started;

    const [{ max_load: maxLoad }] = (await dataSource.query(
      `SELECT coalesce(max(load), 0)::int AS max_load FROM (SELECT count(*) AS load FROM sessions WHERE tenant_id = $1 AND closed_at IS NULL AND operator_id IS NOT NULL GROUP BY operator_id) loads`,
      [tenantID],
    )) as { max_load: number }[];
    const [{ twice }] = (await dataSource.query(
      `SELECT count(*)::int AS twice FROM (SELECT data->>'sessionID' FROM webhook_events WHERE tenant_id = $1 AND type = 'session.assigned' GROUP BY 1 HAVING count(*) > 1) doubled`,
      [tenantID],
    )) as { twice: number }[];
    say(`\nRouting: ${SESSIONS} sessions posted to ${REPLICAS} replicas (${CONNECTIONS} at once), ${OPERATORS} online operators, capacity ${CAPACITY}, least-loaded`);
    say('| sessions | operators | posted in ms | settled in ms | assignments/s | max open per operator | sessions assigned twice |');
    say('|---:|---:|---:|---:|---:|---:|---:|');
    say(`| ${SESSIONS} | ${OPERATORS} | ${Math.round(posted)} | ${Math.round(settled)} | ${Math.round(expected / (settled / 1000))} | ${maxLoad} | ${twice} |`);
    if (maxLoad > CAPACITY || twice > 0) throw new Error(`routing broke its invariants: max load ${maxLoad} (capacity ${CAPACITY}), ${twice} sessions assigned twice`);
  } finally {
    for (const replica of replicas) await stopProcess(replica);
    await dataSource.destroy();
  }
}
