import { SANDBOX_CLOUDFLARE_API_TOKEN, SANDBOX_CLOUDFLARE_ZONE_ID } from '@apps/plugins-helpdesk';
import { exitOnStartupFailure } from '@platform/config';
import { CustomHostnamesStub } from '@platform/testing';

/**
 * The provider sandbox's custom-hostnames part as a process of its own: the
 * Cloudflare API subset plugins-helpdesk uses, on loopback, where every read
 * of a hostname moves it one stage towards active (CNAME found, ownership
 * verified, certificate validated, issued, deployed), so a demo domain turns
 * active after a few refreshes. State lives in memory: a restart forgets the
 * hostnames, and plugins-helpdesk registers a forgotten one again on refresh.
 *
 * Environment: PROVIDER_SANDBOX_CLOUDFLARE_PORT (default 3011),
 * PROVIDER_SANDBOX_AUTO_ADVANCE (`false` keeps hostnames where they are).
 * Prints the base URL for CLOUDFLARE_BASE_URL on stdout, one line.
 */
async function main(): Promise<void> {
  const stub = await CustomHostnamesStub.start({
    apiToken: process.env.CLOUDFLARE_API_TOKEN ?? SANDBOX_CLOUDFLARE_API_TOKEN,
    zoneId: process.env.CLOUDFLARE_ZONE_ID ?? SANDBOX_CLOUDFLARE_ZONE_ID,
    autoAdvance: process.env.PROVIDER_SANDBOX_AUTO_ADVANCE !== 'false',
    port: Number(process.env.PROVIDER_SANDBOX_CLOUDFLARE_PORT ?? 3011),
  });
  process.stdout.write(`${stub.baseUrl}\n`);
  const stop = () => void stub.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch(exitOnStartupFailure);
