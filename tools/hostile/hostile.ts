import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ChildProcess } from 'node:child_process';
import { exitOnStartupFailure } from '@platform/config';
import { createDataSource, runMigrations } from '@platform/database';
import {
  AppRole,
  BillingStub,
  formatSummary,
  generateTestSigningKey,
  HostileTargets,
  OUT_OF_REACH_RATE_LIMITS,
  prepareHostileTargets,
  runHostileCampaign,
  signOperatorToken,
  VmStub,
} from '@platform/testing';
import { recreateDatabase } from '../bench/context';
import { startProcess, stopProcess, waitForHttp } from '../bench/harness';
import { loadLocalEnvironment } from '../support/env-file';

const USAGE = `npm run hostile -- [--runs 3000] [--seed N] [--concurrency 4]
                      [--core URL --services URL --helpdesk URL --fixture demo-fixture.json]

Sends seeded hostile requests at operations 1-15, sign-in, plugin installation,
webhooks and team management
and prints how many answers were wrong, by kind; exits 1 if any was.
Without URLs it starts the three apps itself (fresh database HOSTILE_DATABASE,
default platform_hostile; Redis at HOSTILE_REDIS_URL, default redis://127.0.0.1:6379/13;
ports from HOSTILE_PORT_BASE, default 3950).
With URLs it aims at running apps, with the credentials and ids of a demo fixture
(the JSON \`npm run --silent demo:seed\` prints); it never deletes what exists.`;

/** The demo fixture's fields the hostile requests use. */
interface DemoFixture {
  tenantID: string;
  operators: { owner: { token: string } };
  plugin: { pluginID: string; pluginToken: string };
  pluginConnection: { pluginConnectionID: string; pluginConnectionToken: string };
  contactID?: string;
  sessionID?: string;
  campaignModelID?: string;
  helpdeskDomain?: string;
}

function targetsOfFixture(urls: Record<AppRole, string>, fixture: DemoFixture): HostileTargets {
  return {
    urls,
    tenantID: fixture.tenantID,
    operatorToken: fixture.operators.owner.token,
    plugin: { id: fixture.plugin.pluginID, token: fixture.plugin.pluginToken },
    pluginConnection: { id: fixture.pluginConnection.pluginConnectionID, token: fixture.pluginConnection.pluginConnectionToken },
    knownIDs: [fixture.contactID, fixture.sessionID, fixture.campaignModelID].filter((id): id is string => id !== undefined),
    domainHostname: fixture.helpdeskDomain,
  };
}

/** The three apps as separate processes over a fresh database, as in production; stopped by the returned function. */
async function startApps(): Promise<{ targets: HostileTargets; stop: () => Promise<void> }> {
  loadLocalEnvironment();
  const admin = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  admin.pathname = '/postgres';
  const databaseUrl = await recreateDatabase(admin.toString(), process.env.HOSTILE_DATABASE ?? 'platform_hostile');
  await runMigrations(databaseUrl);
  const portBase = Number(process.env.HOSTILE_PORT_BASE ?? 3950);
  const ports: Record<AppRole, number> = { core: portBase, services: portBase + 1, helpdesk: portBase + 2 };
  const billing = await new BillingStub().start(portBase + 3);
  const vms = await new VmStub().start(portBase + 4);
  const key = generateTestSigningKey();
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.HOSTILE_REDIS_URL ?? 'redis://127.0.0.1:6379/13',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    CORE_TENANTS_PORT: String(ports.core),
    SERVICES_API_PORT: String(ports.services),
    PLUGINS_HELPDESK_PORT: String(ports.helpdesk),
    METRICS_PORT: '0',
    OPERATOR_JWT_PRIVATE_KEY: key.privateKeyPem,
    OPERATOR_JWT_PUBLIC_KEY: key.publicKeyPem,
    BILLING_API_URL: billing.url,
    BILLING_API_KEY: 'sk_test_hostile',
    VM_PROVIDER_URL: vms.url,
    VM_PROVIDER_TOKEN: 'hostile',
    EMAIL_DELIVERABILITY_CHECK: 'false',
    // Thousands of requests from a handful of principals: what is tested is input handling, not budgets.
    ...OUT_OF_REACH_RATE_LIMITS,
  };
  const urls = Object.fromEntries(Object.entries(ports).map(([app, port]) => [app, `http://127.0.0.1:${port}`])) as Record<AppRole, string>;
  const processes: ChildProcess[] = [];
  const stop = async () => {
    for (const child of processes.reverse()) await stopProcess(child);
    await billing.stop();
    await vms.stop();
  };
  try {
    for (const app of ['core-tenants', 'services-api', 'plugins-helpdesk']) processes.push(await startProcess(`dist/apps/${app}/src/main.js`, env));
    for (const url of Object.values(urls)) await waitForHttp(`${url}/health/ready`);
    const dataSource = createDataSource({ url: databaseUrl, poolSize: 2, applicationName: 'hostile' });
    await dataSource.initialize();
    const targets = await prepareHostileTargets(dataSource, urls, {
      signToken: (operatorID) => signOperatorToken(key.privateKey, operatorID),
      helpdeskPluginUrn: process.env.HELPDESK_PLUGIN_URN,
    });
    await dataSource.destroy();
    return { targets, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '3000' },
      seed: { type: 'string' },
      concurrency: { type: 'string', default: '4' },
      core: { type: 'string' },
      services: { type: 'string' },
      helpdesk: { type: 'string' },
      fixture: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  const runs = Number(values.runs);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  const concurrency = Number(values.concurrency);
  if (![runs, seed, concurrency].every(Number.isSafeInteger) || runs < 1 || concurrency < 1) throw new Error(`--runs, --seed and --concurrency take integers\n${USAGE}`);

  const given = [values.core, values.services, values.helpdesk, values.fixture];
  let running: { targets: HostileTargets; stop: () => Promise<void> };
  if (given.every((value) => value !== undefined)) {
    const fixture = JSON.parse(readFileSync(values.fixture!, 'utf8')) as DemoFixture;
    const urls = { core: values.core!, services: values.services!, helpdesk: values.helpdesk! };
    running = { targets: targetsOfFixture(urls, fixture), stop: async () => undefined };
  } else if (given.every((value) => value === undefined)) {
    running = await startApps();
  } else {
    throw new Error(`give all of --core, --services, --helpdesk and --fixture, or none\n${USAGE}`);
  }

  try {
    process.stdout.write(`sending ${runs} hostile requests, seed ${seed}\n`);
    const summary = await runHostileCampaign({ targets: running.targets, runs, seed, concurrency });
    process.stdout.write(`${formatSummary(summary)}\n`);
    process.exitCode = summary.violations.length > 0 ? 1 : 0;
  } finally {
    await running.stop();
  }
}

main().catch(exitOnStartupFailure);
