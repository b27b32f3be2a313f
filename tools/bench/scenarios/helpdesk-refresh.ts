import { createDataSource } from '@platform/database';
import { CustomHostnamesStub, FixtureBuilder } from '@platform/testing';
import autocannon from 'autocannon';
import { BenchContext } from '../context';
import { LoadResult, measure, printTable, startProcess, stopProcess, waitForHttp } from '../harness';

const DOMAINS = 4_000;
const API_TOKEN = 'bench-api-token';
const ZONE_ID = 'bench-zone';

/**
 * Operation 12 (refresh a helpdesk domain) in one run, two ways:
 * - served from the provider: every request refreshes a different domain
 *   (4000 of them, each once), so each one checks the custom-hostnames
 *   sandbox through the cloudflare SDK and writes the result;
 * - throttled: one domain refreshed over and over; after its first check
 *   every answer is 429 1121 from the Redis throttle, with no provider call.
 * plugins-helpdesk runs as its own process, as in production; the stub in this one.
 */
export async function helpdeskRefresh(context: BenchContext): Promise<void> {
  const helpdeskPort = context.portBase;
  const sandboxPort = context.portBase + 1;
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}/client/v4`;
  const sandbox = await CustomHostnamesStub.start({ apiToken: API_TOKEN, zoneID: ZONE_ID, autoAdvance: false, port: sandboxPort });
  const env = {
    ...context.env,
    PLUGINS_HELPDESK_PORT: String(helpdeskPort),
    HELPDESK_PLUGIN_URN: 'urn:plugin:helpdesk',
    CLOUDFLARE_BASE_URL: sandboxUrl,
    CLOUDFLARE_API_TOKEN: API_TOKEN,
    CLOUDFLARE_ZONE_ID: ZONE_ID,
  };
  const helpdesk = await startProcess('dist/apps/plugins-helpdesk/src/main.js', env);
  try {
    await waitForHttp(`http://127.0.0.1:${helpdeskPort}/health/ready`);
    const { authorization, tenantID, hostnames } = await seed(context, sandboxUrl);
    const base = `http://127.0.0.1:${helpdeskPort}/helpdesk/v1/tenants/${tenantID}/helpdesk/domains`;
    const results = [
      await refreshEachOnce('POST .../refresh served from the provider sandbox (4000 domains, each once)', base, hostnames, authorization),
      await measure({
        name: 'POST .../refresh throttled (429 1121, one domain)',
        url: `${base}/${hostnames[0]}/refresh`,
        method: 'POST',
        headers: { authorization },
      }),
    ];
    printTable('Operation 12: refresh via the provider vs throttled (16 connections)', results);
  } finally {
    await stopProcess(helpdesk);
    await sandbox.close();
  }
}

/** The helpdesk plugin connected to a tenant with DOMAINS domains, each registered at the sandbox. */
async function seed(context: BenchContext, sandboxUrl: string): Promise<{ authorization: string; tenantID: string; hostnames: string[] }> {
  const dataSource = createDataSource({ url: context.databaseUrl, poolSize: 2, applicationName: 'bench' });
  await dataSource.initialize();
  try {
    const fixtures = new FixtureBuilder(dataSource);
    const plugin = await fixtures.plugin({ name: 'Central de Ajuda', urn: 'urn:plugin:helpdesk' });
    const tenantID = await fixtures.tenant('Bench Atendimento');
    await fixtures.connection(tenantID, plugin.pluginID);
    const [{ id: helpCenterID }] = await dataSource.query('INSERT INTO help_centers (tenant_id) VALUES ($1) RETURNING id', [tenantID]);
    const hostnames = Array.from({ length: DOMAINS }, (_, index) => `ajuda-${index}.bench-atendimento.com.br`);
    const providerIDs: string[] = [];
    for (let start = 0; start < hostnames.length; start += 50) {
      const batch = hostnames.slice(start, start + 50);
      providerIDs.push(...(await Promise.all(batch.map((hostname) => register(sandboxUrl, hostname)))));
    }
    await dataSource.query(
      `INSERT INTO helpdesk_domains (tenant_id, help_center_id, hostname, provider_id)
       SELECT $1, $2, hostname, provider_id FROM unnest($3::text[], $4::text[]) AS d(hostname, provider_id)`,
      [tenantID, helpCenterID, hostnames, providerIDs],
    );
    return { authorization: plugin.authorization, tenantID, hostnames };
  } finally {
    await dataSource.destroy();
  }
}

async function register(sandboxUrl: string, hostname: string): Promise<string> {
  const response = await fetch(`${sandboxUrl}/zones/${ZONE_ID}/custom_hostnames`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ hostname, ssl: { method: 'http', type: 'dv' } }),
  });
  const body = (await response.json()) as { result: { id: string } };
  return body.result.id;
}

/** One request per hostname, spread over 16 connections: none is throttled. */
async function refreshEachOnce(name: string, base: string, hostnames: string[], authorization: string): Promise<LoadResult> {
  let next = 0;
  const result = await autocannon({
    url: base,
    method: 'POST',
    headers: { authorization },
    connections: 16,
    amount: hostnames.length,
    requests: [
      {
        setupRequest: (request) => ({ ...request, path: `${new URL(base).pathname}/${hostnames[next++ % hostnames.length]}/refresh` }),
      },
    ],
  });
  return { name, requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99, non2xx: result.non2xx, requests: result.requests.total };
}
