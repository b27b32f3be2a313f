import { BillingStub, StubServer, VmStub } from '@platform/testing';

/**
 * The provider sandbox of the quick start: every external provider played on
 * loopback by the same stubs the tests use, so the whole flow works without
 * an account anywhere. Each stub listens on the port of its provider URL.
 */
export interface SandboxProvider {
  name: string;
  /** The environment variable holding the provider's base URL. */
  urlVariable: string;
  create: () => StubServer;
}

export const SANDBOX_PROVIDERS: SandboxProvider[] = [
  { name: 'billing (Stripe API subset)', urlVariable: 'BILLING_API_URL', create: () => new BillingStub() },
  { name: 'hosted VMs', urlVariable: 'VM_PROVIDER_URL', create: () => new VmStub() },
];

export interface RunningSandbox {
  lines: string[];
  stop(): Promise<void>;
}

function loopbackPort(url: string | undefined): number | undefined {
  if (!url) return undefined;
  const parsed = new URL(url);
  return ['127.0.0.1', 'localhost'].includes(parsed.hostname) && parsed.port ? Number(parsed.port) : undefined;
}

/** Starts a stub for every provider whose URL points at a loopback port; real URLs are left alone. */
export async function startProviderSandbox(env: NodeJS.ProcessEnv): Promise<RunningSandbox> {
  const running: StubServer[] = [];
  const lines: string[] = [];
  for (const provider of SANDBOX_PROVIDERS) {
    const port = loopbackPort(env[provider.urlVariable]);
    if (port === undefined) continue;
    running.push(await provider.create().start(port));
    lines.push(`${provider.name.padEnd(28)} ${env[provider.urlVariable]}`);
  }
  return { lines, stop: async () => void (await Promise.all(running.map((stub) => stub.stop()))) };
}
