import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { strict as assert } from 'node:assert';
import type { DemoFixture } from '../demo/demo-fixture';

/**
 * The README's quick start, checked as a new user would live it (CI runs this
 * in a network namespace where no PostgreSQL or Redis can be reached):
 * `npm start` with DATABASE_URL and REDIS_URL unset, the four apps ready,
 * `npm run --silent demo:seed`, operations 1, 4, 8, 9, 12 and 15 and sign-in over
 * HTTP, the operator console's page and what it needs of the APIs, then a restart that finds the data again and prints fresh tokens.
 * Prints the time from `npm start` to all four apps ready, for both starts.
 */
const SERVICES = 'http://127.0.0.1:3000';
const HELPDESK = 'http://127.0.0.1:3001';
const CORE = 'http://127.0.0.1:3002';
const REALTIME = 'http://127.0.0.1:3003';
const MAIL_SINK = 'http://127.0.0.1:1080';
const CONSOLE = 'http://127.0.0.1:3004';
const READY_LIMIT_MS = 180_000;

const say = (line: string) => process.stdout.write(`[quick-start check] ${line}\n`);

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function call(base: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

function expectStatus(what: string, answer: Answer, status: number): Answer {
  assert.equal(answer.status, status, `${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  say(`${what}: ${status}`);
  return answer;
}

const environment = () => {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  return env;
};

/** Runs `npm start` until it has printed its fixture; resolves with the seconds until all four apps were ready. */
interface Started {
  process: ChildProcess;
  readySeconds: number;
  fixture: DemoFixture;
  /** Everything the start has written to stderr so far. */
  output: () => string;
}

async function start(): Promise<Started> {
  const startedAt = Date.now();
  const child = spawn('npm', ['start'], { env: environment(), stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    // The start's own lines (not the fixture's JSON), so a failure shows how far it got.
    for (const line of chunk.toString().split('\n')) if (line.startsWith('[start]')) process.stdout.write(`  ${line}\n`);
  });
  let readySeconds: number | undefined;
  while (Date.now() - startedAt < READY_LIMIT_MS) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
    if (readySeconds === undefined) {
      const answers = await Promise.all([SERVICES, HELPDESK, CORE, REALTIME].map((base) => fetch(`${base}/health/ready`).then((response) => response.ok, () => false)));
      if (answers.every(Boolean)) readySeconds = (Date.now() - startedAt) / 1000;
    }
    if (readySeconds !== undefined && output.includes('Ctrl+C stops everything')) {
      return { process: child, readySeconds, fixture: JSON.parse(readFileSync('.data/demo-fixture.json', 'utf8')) as DemoFixture, output: () => output };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`npm start was not ready within ${READY_LIMIT_MS / 1000} s:\n${output}`);
}

/** Whether any process of the group (npm, the start, which stays until what it runs has stopped) is still there. */
function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

async function stop(started: Started): Promise<void> {
  const child = started.process;
  // npm and the start script form one process group: Ctrl+C reaches them all (the start then stops what it runs).
  const group = child.pid as number;
  const before = started.output().length;
  process.kill(-group, 'SIGINT');
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  // npm exits at once; the start stops the apps, then its PostgreSQL, before it is gone.
  const deadline = Date.now() + 60_000;
  while (groupAlive(group)) {
    if (Date.now() > deadline) throw new Error('npm start did not stop within 60 s of Ctrl+C');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.ok(!existsSync('.data/local-services.env'), 'the stopped start forgets the addresses it had recorded');
  // The apps stop before PostgreSQL: no job worker sees its database go away (errors would reach stderr).
  const stopping = started.output().slice(before);
  assert.ok(stopping.includes('[start] stopped'), `the start says it stopped:\n${stopping}`);
  assert.ok(!/"level":(50|60)/.test(stopping), `Ctrl+C printed an error:\n${stopping}`);
  say('Ctrl+C: stopped without an error line');
}

async function exerciseOperations(fixture: DemoFixture, seeded: DemoFixture): Promise<void> {
  const owner = seeded.operators.owner;
  const signIn = expectStatus('sign-in', await call(CORE, '/v1/operators/sign-in', { method: 'POST', body: { operatorEmail: owner.email, password: owner.password } }), 200);
  const token = signIn.body.data.token as string;
  assert.ok(token, 'sign-in answers a token');

  const tenants = expectStatus('operation 15 (GET /tenants)', await call(CORE, '/tenants', { token }), 200);
  assert.deepEqual(
    tenants.body.data.map((tenant: { tenantID: string }) => tenant.tenantID),
    [seeded.tenantID],
  );

  const models = expectStatus('operation 4 (campaign models)', await call(SERVICES, `/v1/tenants/${seeded.tenantID}/campaigns-models`, { token }), 200);
  assert.ok(models.body.data.some((model: { campaignModelID: string }) => model.campaignModelID === seeded.campaignModelID), 'the seeded campaign model is listed');

  const paid = seeded.connections.paid;
  expectStatus('operation 1 (remove the paid connection)', await call(SERVICES, `/v1/tenants/${seeded.tenantID}/plugins/connections/${paid}`, { method: 'DELETE', token }), 200);
  expectStatus('operation 1 again (already removed)', await call(SERVICES, `/v1/tenants/${seeded.tenantID}/plugins/connections/${paid}`, { method: 'DELETE', token }), 404);

  const address = `new.person.${Date.now()}@example.com`;
  expectStatus('operation 8 (email verification)', await call(SERVICES, '/v1/operators/email-verification', { method: 'POST', body: { operatorEmail: address, operatorFirstname: 'Nova' } }), 202);
  let mailed = false;
  for (let attempt = 0; attempt < 50 && !mailed; attempt += 1) {
    const mails = (await call(MAIL_SINK, '/messages.json')).body as { envelopeTo: string[] }[];
    mailed = mails.some((mail) => mail.envelopeTo.includes(address));
    if (!mailed) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.ok(mailed, 'the verification code reached the mail sink');
  say('operation 8: the code reached the mail sink');

  // The sandbox's demo trace providers listen on loopback: reached through OUTBOUND_ALLOW (.env.example).
  assert.ok(seeded.sessionID, 'the seed made a session');
  const traces = expectStatus('operation 9 (processing traces)', await call(SERVICES, `/v1/tenants/${seeded.tenantID}/sessions/${seeded.sessionID}/processing-traces`, { token }), 200);
  assert.deepEqual(
    traces.body.sources.map((source: { status: string }) => source.status),
    ['ready', 'ready'],
    `both demo trace providers answer: ${JSON.stringify(traces.body.sources)}`,
  );
  assert.ok(traces.body.messages.length > 0, 'the seeded session has traced messages');

  assert.ok(seeded.helpdeskDomain, "the seed made a help-center domain");
  const domain = encodeURIComponent(seeded.helpdeskDomain);
  expectStatus('operation 12 (refresh the help-center domain)', await call(HELPDESK, `/helpdesk/v1/tenants/${seeded.tenantID}/helpdesk/domains/${domain}/refresh`, { method: 'POST', token }), 200);

  await checkConsole(token, seeded.tenantID);

  // The start's own fixture works too.
  expectStatus("operation 15 with the start's owner token", await call(CORE, '/tenants', { token: fixture.operators.owner.token }), 200);
}

/**
 * The operator console the start serves: its page under its CSP, where it
 * finds the APIs (/config.json), and those APIs letting its origin call them
 * (a preflight of the ticket request, as the browser sends it).
 */
async function checkConsole(token: string, tenantID: string): Promise<void> {
  const page = await fetch(CONSOLE);
  assert.equal(page.status, 200, `the console's page: ${page.status}`);
  assert.match(await page.text(), /<script type="module"[^>]* src="\/assets\//, "the console's page loads its bundle");
  assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self';/, 'the console is served with its CSP');
  const config = (await (await fetch(`${CONSOLE}/config.json`)).json()) as Record<string, string>;
  assert.deepEqual(config, { servicesApiUrl: SERVICES, coreTenantsUrl: CORE, realtimeGatewayUrl: REALTIME.replace('http', 'ws') });
  say('operator console: page, CSP and /config.json');
  const preflight = await fetch(`${SERVICES}/v1/tenants/${tenantID}/realtime-tickets`, {
    method: 'OPTIONS',
    headers: { origin: CONSOLE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
  });
  assert.equal(preflight.headers.get('access-control-allow-origin'), CONSOLE, "services-api lets the console's origin call it");
  expectStatus('operator console: a real-time ticket', await call(SERVICES, `/v1/tenants/${tenantID}/realtime-tickets`, { method: 'POST', token }), 201);
}

async function main(): Promise<void> {
  const first = await start();
  say(`first start: all four apps ready ${first.readySeconds.toFixed(1)} s after \`npm start\``);
  let seeded: DemoFixture;
  try {
    seeded = JSON.parse(execFileSync('npm', ['run', '--silent', 'demo:seed'], { env: environment(), encoding: 'utf8' })) as DemoFixture;
    say(`demo:seed printed a fixture (tenant ${seeded.tenantID})`);
    await exerciseOperations(first.fixture, seeded);
  } finally {
    await stop(first);
  }

  const second = await start();
  try {
    say(`restart: all four apps ready ${second.readySeconds.toFixed(1)} s after \`npm start\``);
    assert.equal(second.fixture.tenantID, first.fixture.tenantID, 'the demo data is seeded once');
    assert.notEqual(second.fixture.operators.owner.token, first.fixture.operators.owner.token, 'every start issues new tokens');
    const tenants = expectStatus('after the restart, operation 15 with the seeded owner', await call(CORE, '/tenants', { token: seeded.operators.owner.token }), 200);
    assert.equal(tenants.body.data[0]?.tenantID, seeded.tenantID, 'the data seeded before the restart is still there');
    expectStatus(
      'after the restart, the connection removed before it stays removed',
      await call(SERVICES, `/v1/tenants/${seeded.tenantID}/plugins/connections/${seeded.connections.paid}`, { method: 'DELETE', token: seeded.operators.owner.token }),
      404,
    );
    expectStatus("after the restart, the start's fresh owner token", await call(CORE, '/tenants', { token: second.fixture.operators.owner.token }), 200);
  } finally {
    await stop(second);
  }
  say('passed');
}

main().catch((error: unknown) => {
  process.stderr.write(`[quick-start check] FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
