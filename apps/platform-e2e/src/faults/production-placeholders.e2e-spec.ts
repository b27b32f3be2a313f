import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProductionApp, productionEnvironment } from '../support/production-env';
import { captureOutput, exitOf, spawnTracked } from './harness/child-processes';

/** Runs a built app with `env` only, as a container would, until it exits by itself. */
async function boot(app: ProductionApp, env: Record<string, string>) {
  const child = spawnTracked(process.execPath, [resolve(process.cwd(), 'dist/apps', app, 'src/main.js')], { env: { ...env, PATH: process.env.PATH } });
  const output = captureOutput(child);
  const exit = await exitOf(child);
  return { ...exit, output: output() };
}

/** The real entry points with NODE_ENV=production and a placeholder secret (docs/deployment.md, Secrets). */
describe('production start with a placeholder secret', () => {
  it.each([
    ['core-tenants', { BILLING_API_KEY: 'change-me', VM_PROVIDER_TOKEN: 'CHANGE-ME' }],
    ['services-api', { WHATSAPP_ACCESS_TOKEN: 'sandbox-system-user-token' }],
    ['plugins-helpdesk', { CLOUDFLARE_API_TOKEN: 'short-token' }],
  ] as const)('%s exits non-zero before serving, naming each refused variable', async (app, placeholders) => {
    const result = await boot(app, { ...productionEnvironment(app), ...placeholders });
    expect(result.code, result.output).toBe(1);
    // One JSON log line (fatal) saying why, like every other line the app writes.
    const lines = result.output.trim().split('\n');
    expect(lines, result.output).toHaveLength(1);
    const failure = JSON.parse(lines[0]) as { level: number; app: string; msg: string };
    expect(failure).toMatchObject({ level: 60, app });
    expect(failure.msg).toMatch(/^Startup failed\. Invalid configuration:/);
    for (const name of Object.keys(placeholders)) expect(failure.msg).toMatch(new RegExp(`^\\s+- ${name} is refused in production: `, 'm'));
  });
});
