import { CampaignModelsListRepository } from '@apps/services-api';
import { createDataSource } from '@platform/database';
import { CampaignFixtures, FixtureBuilder, generateTestSigningKey, signOperatorToken } from '@platform/testing';
import { BenchContext } from '../context';
import { CpuResult, measureCpu, printTable, printScaleCheck, startProcess, stopProcess, waitForHttp } from '../harness';

const LARGE = 100_000;
const SMALL = 1_000;
/** One model in LARGE / REFUSED_EVERY is refused: the filter matches 1,000 rows. */
const REFUSED_EVERY = 100;

/**
 * Operation 4 (list campaign models) at 1,000 and 100,000 models in one
 * tenant: the unfiltered list must cost the same at both sizes (maintained
 * count, index-only key scans from the nearer end), and searches and filters
 * cost in proportion to what they match. Prints the EXPLAIN of each query.
 */
export async function campaignModelsList(context: BenchContext): Promise<void> {
  const port = context.portBase;
  const dataSource = createDataSource({ url: context.databaseUrl, poolSize: 2, applicationName: 'bench' });
  await dataSource.initialize();
  const fixtures = new FixtureBuilder(dataSource);
  const campaigns = new CampaignFixtures(dataSource);
  const operator = await fixtures.operator();
  const small = await fixtures.tenant('Bench small tenant');
  const large = await fixtures.tenant('Bench large tenant');
  for (const tenant of [small, large]) await fixtures.membership(tenant, operator.operatorID, 'owner');
  const smallChannel = await campaigns.messagingChannel(small);
  const largeChannel = await campaigns.messagingChannel(large);
  await campaigns.campaignModels(small, smallChannel.channelID, SMALL, { prefix: 'order_update' });
  const started = Date.now();
  await campaigns.campaignModels(large, largeChannel.channelID, LARGE, { prefix: 'order_update', tags: ['pedidos'] });
  await dataSource.query(`UPDATE campaign_models SET status = 'refused' WHERE tenant_id = $1 AND right(name, 2) = '00'`, [large]);
  await dataSource.query('VACUUM ANALYZE campaign_models');
  process.stdout.write(`seeded ${SMALL} + ${LARGE} campaign models in ${Date.now() - started} ms\n`);

  const signingKey = generateTestSigningKey();
  const token = await signOperatorToken(signingKey.privateKey, operator.operatorID);
  const env = {
    ...context.env,
    SERVICES_API_PORT: String(port),
    OPERATOR_JWT_PUBLIC_KEY: signingKey.publicKeyPem,
    // The list never reaches the provider; the base URL only has to be valid.
    WHATSAPP_API_BASE_URL: `http://127.0.0.1:${port + 1}`,
  };
  const lastPage = Math.ceil(LARGE / 20);
  const cases: { name: string; tenant: string; query: Record<string, string> }[] = [
    { name: `page 1, ${SMALL} models`, tenant: small, query: {} },
    { name: `page 1, ${LARGE} models`, tenant: large, query: {} },
    { name: `page 2,500, ${LARGE} models`, tenant: large, query: { page: '2500' } },
    { name: `last page (${lastPage}), ${LARGE} models`, tenant: large, query: { page: String(lastPage) } },
    { name: `page 9007199254740991, ${LARGE} models`, tenant: large, query: { page: '9007199254740991' } },
    { name: `search "update_4242" (11 matches), ${LARGE} models`, tenant: large, query: { search: 'update_4242' } },
    {
      name: `filter status refused (${LARGE / REFUSED_EVERY} matches), ${LARGE} models`,
      tenant: large,
      query: { filters: JSON.stringify({ campaignModelStatus: 'refused' }) },
    },
  ];

  const api = await startProcess('dist/apps/services-api/src/main.js', env);
  const results: CpuResult[] = [];
  try {
    await waitForHttp(`http://127.0.0.1:${port}/health/ready`);
    for (const benchCase of cases) {
      const url = `http://127.0.0.1:${port}/v1/tenants/${benchCase.tenant}/campaigns-models?${new URLSearchParams(benchCase.query)}`;
      const check = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      if (check.status !== 200 && check.status !== 206) throw new Error(`${benchCase.name}: HTTP ${check.status} ${await check.text()}`);
      results.push(await measureCpu({ name: `GET campaigns-models ${benchCase.name}`, url, headers: { authorization: `Bearer ${token}` }, durationSeconds: 5, servers: [api], warmUp: 2_000 }));
    }
  } finally {
    await stopProcess(api);
  }
  printTable('Operation 4 by tenant size (16 connections, 5 s each; CPU of services-api per request)', results);
  printScaleCheck('Operation 4', results[0], results[1]);

  const lists = new CampaignModelsListRepository(dataSource);
  const sqlTimes: string[] = [];
  for (const benchCase of cases) {
    const page = Number(benchCase.query.page ?? 1);
    const { statement, parameters } = lists.statementOf(benchCase.tenant, {
      page,
      perPage: 20,
      sortField: 'createdAt',
      descending: true,
      search: benchCase.query.search,
      filters: benchCase.query.filters ? { statuses: ['refused'] } : undefined,
    });
    const plan: { 'QUERY PLAN': string }[] = await dataSource.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement.text}`, parameters);
    process.stdout.write(`\nEXPLAIN ${benchCase.name}\n${plan.map((row) => `    ${row['QUERY PLAN']}`).join('\n')}\n`);
    sqlTimes.push(`${benchCase.name}: ${plan.find((row) => row['QUERY PLAN'].startsWith('Execution Time'))?.['QUERY PLAN'] ?? '?'}`);
  }
  process.stdout.write(`\nSQL time of each case (EXPLAIN ANALYZE):\n${sqlTimes.map((line) => `- ${line}`).join('\n')}\n`);
  await dataSource.destroy();
}
