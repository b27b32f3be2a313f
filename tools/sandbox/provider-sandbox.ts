import { SANDBOX_CLOUDFLARE_API_TOKEN, SANDBOX_CLOUDFLARE_ZONE_ID } from '@apps/plugins-helpdesk';
import { BillingStub, CustomHostnamesStub, VmStub, WhatsAppTemplateStub } from '@platform/testing';
import { DemoProviderMode, startDemoTraceProvider } from './demo-trace-providers';

/**
 * The provider sandbox of the quick start: every external provider played on
 * loopback by the same stubs the tests use, so the whole flow works without
 * an account anywhere. A stub is started for each provider whose URL in the
 * configuration points at a loopback port, on that port; real URLs are left
 * alone. State lives in memory: a restart forgets it.
 */
interface SandboxProvider {
  name: string;
  /** The environment variable holding the provider's base URL. */
  urlVariable: string;
  start(port: number, env: NodeJS.ProcessEnv): Promise<{ stop(): Promise<void> }>;
}

const SANDBOX_PROVIDERS: SandboxProvider[] = [
  {
    name: 'billing (Stripe API subset)',
    urlVariable: 'BILLING_API_URL',
    start: async (port) => {
      const stub = await new BillingStub().start(port);
      return { stop: () => stub.stop() };
    },
  },
  {
    name: 'hosted VMs',
    urlVariable: 'VM_PROVIDER_URL',
    start: async (port) => {
      const stub = await new VmStub().start(port);
      return { stop: () => stub.stop() };
    },
  },
  {
    name: 'message templates (WhatsApp)',
    urlVariable: 'WHATSAPP_API_BASE_URL',
    start: async (port) => {
      const stub = await WhatsAppTemplateStub.start(port);
      return { stop: () => stub.close() };
    },
  },
  {
    // Every read of a hostname moves it one stage towards active (CNAME found,
    // ownership verified, certificate issued, deployed), so a demo domain turns
    // active after a few refreshes.
    name: 'custom hostnames (Cloudflare)',
    urlVariable: 'CLOUDFLARE_BASE_URL',
    start: async (port, env) => {
      const stub = await CustomHostnamesStub.start({
        apiToken: env.CLOUDFLARE_API_TOKEN ?? SANDBOX_CLOUDFLARE_API_TOKEN,
        zoneID: env.CLOUDFLARE_ZONE_ID ?? SANDBOX_CLOUDFLARE_ZONE_ID,
        autoAdvance: true,
        port,
      });
      return { stop: () => stub.close() };
    },
  },
  {
    // Processing-trace providers: plugins, not platform configuration. The demo seed declares these
    // URLs as the trace endpoints of its two demo plugins (docs/processing-traces.md, demo providers).
    name: 'trace provider: intent classifier',
    urlVariable: 'TRACE_SANDBOX_INTENT_URL',
    start: (port, env) => startDemoTrace('intent', port, env),
  },
  {
    name: 'trace provider: CRM enrichment',
    urlVariable: 'TRACE_SANDBOX_CRM_URL',
    start: (port, env) => startDemoTrace('crm', port, env, demoModeOf(env.TRACE_SANDBOX_CRM_MODE)),
  },
];

function demoModeOf(value: string | undefined): DemoProviderMode {
  const mode = value || 'normal';
  if (!['normal', 'slow', 'failing'].includes(mode)) throw new Error('TRACE_SANDBOX_CRM_MODE must be one of: normal, slow, failing');
  return mode as DemoProviderMode;
}

async function startDemoTrace(kind: 'intent' | 'crm', port: number, env: NodeJS.ProcessEnv, mode: DemoProviderMode = 'normal') {
  const url = new URL(env[kind === 'intent' ? 'TRACE_SANDBOX_INTENT_URL' : 'TRACE_SANDBOX_CRM_URL']!);
  if (!env.DATABASE_URL) throw new Error('DATABASE_URL is missing: the demo trace providers read the demo messages');
  return startDemoTraceProvider({ kind, port, prefix: url.pathname.replace(/\/+$/, ''), databaseUrl: env.DATABASE_URL, jwksUrl: env.OPERATOR_JWKS_URL, mode });
}

export interface RunningSandbox {
  lines: string[];
  stop(): Promise<void>;
}

function loopbackPort(url: string | undefined): number | undefined {
  if (!url) return undefined;
  const parsed = new URL(url);
  return ['127.0.0.1', 'localhost'].includes(parsed.hostname) && parsed.port ? Number(parsed.port) : undefined;
}

export async function startProviderSandbox(env: NodeJS.ProcessEnv): Promise<RunningSandbox> {
  const running: { stop(): Promise<void> }[] = [];
  const lines: string[] = [];
  for (const provider of SANDBOX_PROVIDERS) {
    const port = loopbackPort(env[provider.urlVariable]);
    if (port === undefined) continue;
    running.push(await provider.start(port, env));
    lines.push(`${provider.name.padEnd(34)} ${env[provider.urlVariable]}`);
  }
  return { lines, stop: async () => void (await Promise.all(running.map((stub) => stub.stop()))) };
}
