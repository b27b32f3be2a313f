import { randomUUID } from 'node:crypto';
import {
  ConversationEvents,
  FanOutNotificationsUseCase,
  InboxesRepository,
  MessagesRepository,
  NotificationCountEvents,
  NotificationCountsRepository,
  NotificationFanoutsRepository,
  NotificationFanoutWorker,
  NotificationMailsRepository,
  PostInboundMessageUseCase,
  PostReplyUseCase,
  SessionsRepository,
} from '@apps/services-api';
import type { ConversationsSettings } from '@apps/services-api';
import { createDataSource } from '@platform/database';
import { NO_IDEMPOTENCY_KEY } from '@platform/idempotency';
import { FixtureBuilder, generateTestSigningKey, signOperatorToken } from '@platform/testing';
import { OutboxRepository } from '@platform/outbox';
import { OutboxNudges, WebhookEvents } from '@platform/webhooks';
import { BenchContext } from '../context';
import { CpuResult, measureCpu, percentiles, printTable, startProcess, stopProcess, waitForHttp } from '../harness';
import { passedAccessCheck } from '../passed-access-check';
import { cpuMicrosecondsOf } from '../process-usage';

/** Operators of the tenant a queued session's message fans out to (BENCH_FANOUT_OPERATORS). */
const OPERATORS = Number(process.env.BENCH_FANOUT_OPERATORS ?? 2_000);
/** Messages per measurement: modest, the machine is shared (BENCH_MOTION_MESSAGES). */
const MESSAGES = Number(process.env.BENCH_MOTION_MESSAGES ?? 1_500);
const CONNECTIONS = 4;
/** Contacts the posts cycle through: a contact's posts serialise on its handle's lock. */
const CONTACTS = 40;
const FANOUTS = 20;

/**
 * Conversations in motion (docs/conversations.md): an inbound post and a
 * reply through HTTP (a separate services-api process, CPU per message from
 * /proc) beside their floor, the same use case's SQL run bare in this
 * process (no HTTP, authentication, validation or logging); and one
 * queued-session notification fan-out to a tenant of 2,000 operators, timed
 * as the background loop runs it.
 */
export async function conversationsMotion(context: BenchContext): Promise<void> {
  const say = (text: string) => process.stdout.write(`${text}\n`);
  const port = context.portBase;
  const dataSource = createDataSource({ url: context.databaseUrl, poolSize: 4, applicationName: 'bench' });
  await dataSource.initialize();
  const fixtures = new FixtureBuilder(dataSource);
  const tenantID = await fixtures.tenant('Bench conversations tenant');
  const owner = await fixtures.operator();
  await fixtures.membership(tenantID, owner.operatorID, 'owner');
  const loadStarted = performance.now();
  await dataSource.query(
    `WITH made AS (
       INSERT INTO operators (email, firstname, password_hash)
       SELECT 'bench-operator-' || g || '-' || $2 || '@example.com', 'Operator ' || g, 'not-a-hash' FROM generate_series(1, $3::int) g RETURNING id)
     INSERT INTO memberships (tenant_id, operator_id, role) SELECT $1, id, 'member' FROM made`,
    [tenantID, randomUUID(), OPERATORS],
  );
  const plugin = await fixtures.plugin({ name: 'Bench channel' });
  const connection = await fixtures.connection(tenantID, plugin.pluginID);
  const [{ id: inboxID }] = await dataSource.query(`INSERT INTO inboxes (tenant_id, name, channel, plugin_connection_id) VALUES ($1, 'Bench WhatsApp', 'whatsapp', $2) RETURNING id`, [
    tenantID,
    connection.pluginConnectionID,
  ]);
  say(`${OPERATORS} operators loaded in ${Math.round(performance.now() - loadStarted)} ms`);

  const settings: ConversationsSettings = { messageContentMaxCharacters: 4096, fanoutPollMs: 60_000, retentionDays: 0 };
  const fanouts = new NotificationFanoutsRepository(dataSource);
  const sessions = new SessionsRepository(dataSource);
  const messages = new MessagesRepository(dataSource);
  // No gateway listens: the bench reads its events from the outbox.
  const noNudges = { committed: () => undefined } as unknown as OutboxNudges;
  const webhookEvents = new WebhookEvents(new OutboxRepository(dataSource), 'bench', noNudges);
  const events = new ConversationEvents(webhookEvents);
  const countEvents = new NotificationCountEvents(new NotificationCountsRepository(dataSource), webhookEvents);
  const noWorker = { nudge: () => undefined } as unknown as NotificationFanoutWorker;
  const inbound = new PostInboundMessageUseCase(passedAccessCheck, new InboxesRepository(dataSource), sessions, messages, fanouts, events, countEvents, noWorker, new NotificationMailsRepository(dataSource), settings);
  const reply = new PostReplyUseCase(passedAccessCheck, sessions, messages, events, settings);
  const principal = { kind: 'pluginConnection' as const, pluginConnectionID: connection.pluginConnectionID, pluginID: plugin.pluginID, tenantID };
  let sequence = 0;
  const post = (contact: number) =>
    inbound.execute({ principal, tenantID, inboxID, contactHandle: `+55119${String(contact).padStart(8, '0')}`, channelMessageID: `bench.${++sequence}.${randomUUID()}`, content: 'Olá, meu pedido não chegou.' });

  // Every contact has a session, assigned to the owner: the steady state (no fan-out on the request path).
  const sessionIDs: string[] = [];
  for (let contact = 0; contact < CONTACTS; contact += 1) sessionIDs.push((await post(contact)).posted.session.sessionID);
  await dataSource.query(`UPDATE sessions SET operator_id = $2 WHERE id = ANY ($1::uuid[])`, [sessionIDs, owner.operatorID]);
  await dataSource.query('DELETE FROM notification_fanouts');

  /** The floor: the use case's own SQL, run bare in this process, `MESSAGES` times over `CONNECTIONS` at once. */
  const bare = async (name: string, once: (index: number) => Promise<unknown>) => {
    const durations: number[] = [];
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < MESSAGES) {
          const index = next++;
          const at = performance.now();
          await once(index);
          durations.push(performance.now() - at);
        }
      }),
    );
    const cpu = process.cpuUsage(cpuBefore);
    const { p50, p99 } = percentiles(durations);
    return {
      name,
      requestsPerSecond: Math.round(MESSAGES / ((performance.now() - started) / 1000)),
      p50Ms: p50,
      p99Ms: p99,
      non2xx: 0,
      requests: MESSAGES,
      cpuMicrosecondsPerRequest: Math.round((cpu.user + cpu.system) / MESSAGES),
    };
  };
  const bareInbound = await bare('bare SQL: inbound post (use case in-process, no HTTP)', (index) => post(index % CONTACTS));
  const bareReply = await bare('bare SQL: reply (use case in-process, no HTTP)', (index) =>
    reply.execute({ principal: { kind: 'operator', operatorID: owner.operatorID }, tenantID, sessionID: sessionIDs[index % CONTACTS], content: 'Vou verificar agora.', idempotency: NO_IDEMPOTENCY_KEY }),
  );

  const key = generateTestSigningKey();
  const ownerToken = `Bearer ${await signOperatorToken(key.privateKey, owner.operatorID, { expiresInSeconds: 3600 })}`;
  const env = { ...context.env, SERVICES_API_PORT: String(port), OPERATOR_JWT_PUBLIC_KEY: key.publicKeyPem };
  const api = await startProcess('dist/apps/services-api/src/main.js', env);
  let http: CpuResult[] = [];
  try {
    await waitForHttp(`http://127.0.0.1:${port}/health/ready`);
    let contact = 0;
    const inboundBody = () =>
      JSON.stringify({ contactHandle: `+55119${String(contact++ % CONTACTS).padStart(8, '0')}`, channelMessageID: `bench.http.${++sequence}.${randomUUID()}`, content: 'Olá, meu pedido não chegou.' });
    const postUrl = `http://127.0.0.1:${port}/v1/tenants/${tenantID}/inboxes/${inboxID}/messages`;
    const check = await fetch(postUrl, { method: 'POST', headers: { authorization: connection.authorization, 'content-type': 'application/json' }, body: inboundBody() });
    if (check.status !== 201) throw new Error(`inbound post: ${check.status} ${await check.text()}`);
    let replyIndex = 0;
    http = [
      await measureCpu({
        name: 'HTTP inbound post, assigned session',
        url: postUrl,
        method: 'POST',
        headers: { authorization: connection.authorization, 'content-type': 'application/json' },
        nextBody: inboundBody,
        amount: MESSAGES,
        connections: CONNECTIONS,
        servers: [api],
        warmUp: 300,
      }),
      await measureCpu({
        name: 'HTTP reply',
        url: `http://127.0.0.1:${port}/v1/tenants/${tenantID}/sessions/${sessionIDs[0]}/messages`,
        method: 'POST',
        headers: { authorization: ownerToken, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'Vou verificar agora.' }),
        nextPath: () => `/v1/tenants/${tenantID}/sessions/${sessionIDs[replyIndex++ % CONTACTS]}/messages`,
        amount: MESSAGES,
        connections: CONNECTIONS,
        servers: [api],
        warmUp: 300,
      }),
    ];
  } finally {
    await stopProcess(api);
  }
  printTable(`Messages in and out: ${MESSAGES} each, ${CONNECTIONS} at once; CPU of services-api (HTTP) or of this process (bare)`, [http[0], bareInbound, http[1], bareReply]);
  say(
    `\nHTTP over floor, CPU per message: inbound ${(http[0].cpuMicrosecondsPerRequest / bareInbound.cpuMicrosecondsPerRequest).toFixed(2)}x, ` +
      `reply ${(http[1].cpuMicrosecondsPerRequest / bareReply.cpuMicrosecondsPerRequest).toFixed(2)}x`,
  );

  // A queued session's message: one fan-out row on the request path, then the loop's fan-out to every operator.
  const queued: string[] = [];
  for (let index = 0; index < FANOUTS; index += 1) queued.push((await post(CONTACTS + index)).posted.session.sessionID);
  const [{ count: recorded }] = await dataSource.query(`SELECT count(*)::int AS count FROM notification_fanouts`);
  const fanOut = new FanOutNotificationsUseCase(fanouts, countEvents);
  const durations: number[] = [];
  const serverCpuBefore = await postgresCpuMicroseconds(dataSource);
  const [{ count: before }] = await dataSource.query(`SELECT count(*)::int AS count FROM notifications`);
  for (;;) {
    const at = performance.now();
    if (!(await fanOut.execute())) break;
    durations.push(performance.now() - at);
  }
  const serverCpu = (await postgresCpuMicroseconds(dataSource)) - serverCpuBefore;
  const [{ count: after }] = await dataSource.query(`SELECT count(*)::int AS count FROM notifications`);
  const { p50, p99 } = percentiles(durations);
  say(
    `\nNotification fan-out, ${OPERATORS}-operator tenant: ${recorded} queued-session messages wrote ${recorded} row(s) on their request path; ` +
      `the loop then wrote ${after - before} notifications in ${durations.length} fan-outs ` +
      `(${Math.round((after - before) / Math.max(1, durations.length))} per message), p50 ${p50} ms / p99 ${p99} ms per fan-out` +
      (serverCpu > 0 ? `, PostgreSQL backends' CPU ${Math.round(serverCpu / 1000 / Math.max(1, durations.length))} ms per fan-out` : ''),
  );
  // A second message to each session an operator has not read: nothing new to write (one unread notification per operator and session).
  for (let index = 0; index < FANOUTS; index += 1) await post(CONTACTS + index);
  const again: number[] = [];
  for (;;) {
    const at = performance.now();
    if (!(await fanOut.execute())) break;
    again.push(performance.now() - at);
  }
  const [{ count: afterAgain }] = await dataSource.query(`SELECT count(*)::int AS count FROM notifications`);
  say(`A second message to each of those sessions, unread: ${afterAgain - after} notifications written, p50 ${percentiles(again).p50} ms per fan-out`);
  await dataSource.destroy();
}

/** CPU time of every PostgreSQL backend process of this cluster, when this machine runs it (else 0). */
async function postgresCpuMicroseconds(dataSource: { query(sql: string): Promise<{ pid: number }[]> }): Promise<number> {
  const backends = await dataSource.query(`SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend'`);
  return backends.reduce((sum, { pid }) => {
    try {
      return sum + cpuMicrosecondsOf(pid);
    } catch {
      return sum; // not readable here (another machine, another user), or gone
    }
  }, 0);
}
