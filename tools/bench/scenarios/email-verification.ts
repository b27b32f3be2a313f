import { createDataSource } from '@platform/database';
import { startDnsStub, startSmtpStub } from '@platform/testing';
import { BenchContext } from '../context';
import { LoadResult, measure, printTable, startProcess, stopProcess, waitForHttp } from '../harness';

const DOMAIN = 'bench-atendimento.com.br';
/** Enough accounts that no existing address is asked for twice (one request per address per minute). */
const EXISTING_ACCOUNTS = 80_000;
const ROUND_SECONDS = 10;
const ROUNDS = 2;

/**
 * Operation 8 for addresses without and with an account, side by side in one
 * run: the two must be indistinguishable (same work on both paths). Each
 * request uses an address never asked for before, so none hits the
 * per-minute limit. services-api runs with the DNS check on (against a local
 * DNS server) and a local SMTP sink, as in the tests; core-tenants answers
 * the mail job's question whether an address has an account.
 */
export async function emailVerification(context: BenchContext): Promise<void> {
  const corePort = context.portBase + 1;
  const servicesPort = context.portBase + 2;
  const dataSource = createDataSource({ url: context.databaseUrl, poolSize: 2, applicationName: 'bench' });
  await dataSource.initialize();
  await dataSource.query(
    `INSERT INTO operators (email, firstname, password_hash)
     SELECT 'existing-' || n || '@${DOMAIN}', 'Bench', '$2b$11$benchbenchbenchbenchbeuJ0z0Jt1o2S3u4v5w6x7y8z9A0B1C2D'
       FROM generate_series(1, ${EXISTING_ACCOUNTS}) AS n`,
  );
  await dataSource.destroy();

  const smtp = await startSmtpStub();
  const dns = await startDnsStub({ [DOMAIN]: { mx: [{ exchange: `mail.${DOMAIN}`, priority: 10 }] } });
  const env = {
    ...context.env,
    CORE_TENANTS_PORT: String(corePort),
    SERVICES_API_PORT: String(servicesPort),
    SMTP_URL: smtp.url,
    EMAIL_DELIVERABILITY_CHECK: 'true',
    EMAIL_DNS_SERVERS: dns.server,
    EMAIL_VERIFICATION_REQUESTS_PER_IP: '1000000',
  };
  const core = await startProcess('dist/apps/core-tenants/src/main.js', env);
  const services = await startProcess('dist/apps/services-api/src/main.js', env);
  let fresh = 0;
  let existing = 0;
  const bodyFor = (email: string) => JSON.stringify({ operatorEmail: email, operatorFirstname: 'Bench' });
  const run = (name: string, nextBody: () => string) =>
    measure({
      name,
      url: `http://127.0.0.1:${servicesPort}/v1/operators/email-verification`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      nextBody,
      durationSeconds: ROUND_SECONDS,
      connections: 8,
    });
  try {
    await waitForHttp(`http://127.0.0.1:${corePort}/health/ready`);
    await waitForHttp(`http://127.0.0.1:${servicesPort}/health/ready`);
    // Warm-up: JIT, pools, the queue's first inserts.
    await run('warm-up', () => bodyFor(`warm-${fresh++}@${DOMAIN}`));
    const results: LoadResult[] = [];
    // Both kinds at once, 8 connections each: they share the same moment, the same
    // background mail work and the same noise, so their figures compare directly.
    for (let round = 1; round <= ROUNDS; round += 1) {
      results.push(
        ...(await Promise.all([
          run(`round ${round}: new address (no account)`, () => bodyFor(`new-${fresh++}@${DOMAIN}`)),
          run(`round ${round}: existing address (has an account)`, () => bodyFor(`existing-${(existing++ % EXISTING_ACCOUNTS) + 1}@${DOMAIN}`)),
        ])),
      );
    }
    printTable(`POST {base_url}/v1/operators/email-verification, new and existing addresses measured at the same time (8 + 8 connections, ${ROUND_SECONDS} s per round, DNS check on)`, results);
    process.stdout.write(`\nmails received by the sink during the run: ${smtp.mails.length} (existing addresses must get none: ${smtp.mails.filter((mail) => mail.envelopeTo[0]?.startsWith('existing-')).length})\n`);
    if (existing > EXISTING_ACCOUNTS) process.stdout.write(`warning: ${existing} requests for ${EXISTING_ACCOUNTS} existing accounts: some hit the per-minute limit\n`);
  } finally {
    await stopProcess(services);
    await stopProcess(core);
    await smtp.close();
    await dns.close();
  }
}
