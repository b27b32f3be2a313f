import 'reflect-metadata';
import { CoreTenantsConfig, issueOperatorToken } from '@apps/core-tenants';
import { exitOnStartupFailure, loadConfig } from '@platform/config';
import { createDataSource, runMigrations } from '@platform/database';
import { FixtureBuilder } from '@platform/testing';
import { Client } from 'pg';
import { loadLocalEnvironment } from '../support/env-file';
import { measure, printTable, startProcess, stopProcess, waitForHttp } from './harness';

/**
 * `npm run bench`: figures for the README and issue notes, on this machine,
 * one run. Works in its own database (BENCH_DATABASE, default platform_bench),
 * recreated each run, and Redis database 14; apps run as separate processes.
 */
const BENCH_PORTS = { core: 3902, hello: 3903 };

async function recreateDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function main(): Promise<void> {
  loadLocalEnvironment();
  const admin = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  admin.pathname = '/postgres';
  const databaseUrl = await recreateDatabase(admin.toString(), process.env.BENCH_DATABASE ?? 'platform_bench');
  await runMigrations(databaseUrl);
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/14',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    CORE_TENANTS_PORT: String(BENCH_PORTS.core),
  };

  const dataSource = createDataSource({ url: databaseUrl, poolSize: 2, applicationName: 'bench' });
  await dataSource.initialize();
  const fixtures = new FixtureBuilder(dataSource);
  const operator = await fixtures.operator();
  for (let index = 0; index < 5; index += 1) {
    await fixtures.membership(await fixtures.tenant(`Bench tenant ${index}`), operator.operatorID, index === 0 ? 'owner' : 'member');
  }
  const config = loadConfig(CoreTenantsConfig, { ...process.env, ...env });
  const { token } = await issueOperatorToken(config, operator.operatorID);
  await dataSource.destroy();

  const core = await startProcess('dist/apps/core-tenants/src/main.js', env);
  const hello = await startProcess('dist/tools/bench/hello-server.js', { PORT: String(BENCH_PORTS.hello) });
  try {
    await waitForHttp(`http://127.0.0.1:${BENCH_PORTS.core}/health/ready`);
    await waitForHttp(`http://127.0.0.1:${BENCH_PORTS.hello}/hello`);
    const results = [
      await measure({ name: 'bare Fastify GET /hello (baseline)', url: `http://127.0.0.1:${BENCH_PORTS.hello}/hello` }),
      await measure({
        name: 'GET {core_url}/tenants, valid token, 5 tenants',
        url: `http://127.0.0.1:${BENCH_PORTS.core}/tenants`,
        headers: { authorization: `Bearer ${token}` },
      }),
    ];
    printTable('Operation 15 against a bare Fastify server (16 connections, 10 s each)', results);
  } finally {
    await stopProcess(core);
    await stopProcess(hello);
  }
}

main().catch(exitOnStartupFailure);
