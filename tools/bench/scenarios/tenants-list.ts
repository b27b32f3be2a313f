import { CoreTenantsConfig, issueOperatorToken } from '@apps/core-tenants';
import { loadConfig } from '@platform/config';
import { createDataSource } from '@platform/database';
import { FixtureBuilder } from '@platform/testing';
import { BenchContext } from '../context';
import { measure, printTable, startProcess, stopProcess, waitForHttp } from '../harness';

/** Operation 15 (GET {core_url}/tenants) beside a bare Fastify "hello" server. */
export async function tenantsList(context: BenchContext): Promise<void> {
  const corePort = context.portBase;
  const helloPort = context.portBase + 1;
  const dataSource = createDataSource({ url: context.databaseUrl, poolSize: 2, applicationName: 'bench' });
  await dataSource.initialize();
  const fixtures = new FixtureBuilder(dataSource);
  const operator = await fixtures.operator();
  for (let index = 0; index < 5; index += 1) {
    await fixtures.membership(await fixtures.tenant(`Bench tenant ${index}`), operator.operatorID, index === 0 ? 'owner' : 'member');
  }
  const env = { ...context.env, CORE_TENANTS_PORT: String(corePort) };
  const { token } = await issueOperatorToken(loadConfig(CoreTenantsConfig, { ...process.env, ...env }), operator.operatorID);
  await dataSource.destroy();

  const core = await startProcess('dist/apps/core-tenants/src/main.js', env);
  const hello = await startProcess('dist/tools/bench/hello-server.js', { PORT: String(helloPort) });
  try {
    await waitForHttp(`http://127.0.0.1:${corePort}/health/ready`);
    await waitForHttp(`http://127.0.0.1:${helloPort}/hello`);
    const results = [
      await measure({ name: 'bare Fastify GET /hello (baseline)', url: `http://127.0.0.1:${helloPort}/hello` }),
      await measure({
        name: 'GET {core_url}/tenants, valid token, 5 tenants',
        url: `http://127.0.0.1:${corePort}/tenants`,
        headers: { authorization: `Bearer ${token}` },
      }),
    ];
    printTable('Operation 15 against a bare Fastify server (16 connections, 10 s each)', results);
  } finally {
    await stopProcess(core);
    await stopProcess(hello);
  }
}
