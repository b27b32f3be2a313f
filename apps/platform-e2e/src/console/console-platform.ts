import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConsoleConfig, createConsoleServer } from '@apps/operator-console';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { Channel, Operator } from '../conversations/conversation-platform';
import { GatewayReplica, startGateway } from '../realtime/realtime-client';
import { startPlatform, TestPlatform } from '../support/platform';

/** Debian's Chromium (the CI installs it); nothing here downloads a browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A front end's operator: the credentials they sign in with, and a token for the test's own REST calls. */
export interface ConsoleOperator extends Operator {
  email: string;
  password: string;
}

export interface ConsoleTenant {
  tenantID: string;
  tenantName: string;
  owner: ConsoleOperator;
  member: ConsoleOperator;
  channel: Channel;
  inboxID: string;
  inboxName: string;
}

/**
 * The console as it runs in production, in front of the real apps: its
 * built assets behind its own server, core-tenants and services-api, and two
 * gateway replicas behind a balancer the page reaches them through. Two
 * tenants, each with an owner, a member, a channel connection and an inbox.
 */
export interface ConsolePlatform {
  platform: TestPlatform;
  consoleUrl: string;
  replicas: GatewayReplica[];
  balancer: GatewayBalancer;
  tenant: ConsoleTenant;
  otherTenant: ConsoleTenant;
  browser: Browser;
  close(): Promise<void>;
}

const CONSOLE_ROOT = resolve('apps/operator-console');

/** Builds the console's assets as `npm run build:console` does, into a directory of the test's own. */
function buildConsole(): string {
  const outDir = mkdtempSync(join(tmpdir(), 'operator-console-'));
  execFileSync(process.execPath, [resolve('node_modules/vite/bin/vite.js'), 'build', '--config', join(CONSOLE_ROOT, 'vite.config.mts'), '--outDir', outDir, '--logLevel', 'error'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    // The production build, as served: the test runner's NODE_ENV=test would make it a development one.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (!existsSync(join(outDir, 'index.html'))) throw new Error(`the console's build wrote no index.html in ${outDir}`);
  return outDir;
}

function listening(server: Server): Promise<number> {
  return new Promise((resolvePort, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolvePort((server.address() as AddressInfo).port));
  });
}

/**
 * What a load balancer does in front of the gateway's replicas: each new
 * connection goes to the first replica that accepts it. `hold` makes it
 * refuse new connections (every replica out of reach) until `release`.
 */
export class GatewayBalancer {
  private held = false;
  private readonly sockets = new Set<Socket>();
  private readonly server = createServer((client) => this.accept(client));
  private port = 0;
  private constructor(private readonly targets: () => number[]) {}

  static async start(targets: () => number[]): Promise<GatewayBalancer> {
    const balancer = new GatewayBalancer(targets);
    balancer.port = await listening(balancer.server);
    return balancer;
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  hold(): void {
    this.held = true;
  }

  release(): void {
    this.held = false;
  }

  private accept(client: Socket): void {
    this.sockets.add(client);
    client.once('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    if (this.held) return void client.destroy();
    this.forward(client, this.targets());
  }

  private forward(client: Socket, candidates: number[]): void {
    const [port, ...rest] = candidates;
    if (port === undefined) return void client.destroy();
    const upstream = connect(port, '127.0.0.1');
    let connected = false;
    upstream.once('error', () => {
      if (connected) client.destroy();
      else this.forward(client, rest);
    });
    upstream.once('connect', () => {
      connected = true;
      this.sockets.add(upstream);
      upstream.once('close', () => {
        this.sockets.delete(upstream);
        client.destroy();
      });
      client.once('close', () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((done) => this.server.close(done));
  }
}

export async function startConsolePlatform(): Promise<ConsolePlatform> {
  const assetsDir = buildConsole();
  let config: ConsoleConfig = { servicesApiUrl: 'http://127.0.0.1:9', coreTenantsUrl: 'http://127.0.0.1:9', realtimeGatewayUrl: 'ws://127.0.0.1:9' };
  const consoleServer = createConsoleServer({ assetsDir, config: () => config });
  const consoleUrl = `http://127.0.0.1:${await listening(consoleServer)}`;

  const platform = await startPlatform({
    apps: ['core-tenants', 'services-api'],
    env: { CORS_ALLOWED_ORIGINS: consoleUrl, NOTIFICATION_FANOUT_POLL_MS: '100' },
  });
  const gatewayEnv = { REALTIME_RELAY_POLL_MS: '20', REALTIME_HEARTBEAT_SECONDS: '1', REALTIME_DRAIN_JITTER_MS: '200' };
  const replicas = [await startGateway(platform, gatewayEnv), await startGateway(platform, gatewayEnv)];
  // A stopped replica refuses connections: the balancer then sends them to the next.
  const balancer = await GatewayBalancer.start(() => replicas.map((replica) => Number(new URL(replica.url).port)));
  config = { servicesApiUrl: platform.servicesUrl, coreTenantsUrl: platform.coreUrl, realtimeGatewayUrl: balancer.url };

  const tenant = await consoleTenant(platform, 'Acme Suporte', 'WhatsApp Vendas');
  const otherTenant = await consoleTenant(platform, 'Outra Empresa', 'WhatsApp Outra');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
  return {
    platform,
    consoleUrl,
    replicas,
    balancer,
    tenant,
    otherTenant,
    browser,
    async close() {
      await browser.close();
      await balancer.close();
      for (const replica of replicas) await replica.close();
      await new Promise((done) => consoleServer.close(done));
      await platform.close();
      rmSync(assetsDir, { recursive: true, force: true });
    },
  };
}

async function consoleTenant(platform: TestPlatform, tenantName: string, inboxName: string): Promise<ConsoleTenant> {
  const { fixtures } = platform;
  const tenantID = await fixtures.tenant(tenantName);
  const operator = async (role: 'owner' | 'member', firstname: string): Promise<ConsoleOperator> => {
    const { operatorID, email, password } = await fixtures.operator({ firstname });
    await fixtures.membership(tenantID, operatorID, role);
    return { operatorID, email, password, authorization: `Bearer ${await platform.tokenFor(operatorID)}` };
  };
  const owner = await operator('owner', 'Olivia');
  const member = await operator('member', 'Mateus');
  const plugin = await fixtures.plugin({ name: 'WhatsApp channel' });
  const channel = await fixtures.connection(tenantID, plugin.pluginID);
  const created = await platform.api.services.POST('/v1/tenants/{tenantID}/inboxes', {
    params: { path: { tenantID } },
    headers: { authorization: owner.authorization },
    body: { name: inboxName, channel: 'whatsapp', pluginConnectionID: channel.pluginConnectionID },
  });
  if (created.response.status !== 201) throw new Error(`creating inbox ${inboxName} answered ${created.response.status}`);
  const inboxID = created.data!.data.inboxID;
  return { tenantID, tenantName, owner, member, channel: { pluginConnectionID: channel.pluginConnectionID, authorization: channel.authorization }, inboxID, inboxName };
}

/** A page of its own (a browser context: no shared storage), errors of the page collected. */
export async function openConsole(context: ConsolePlatform, viewport = { width: 1280, height: 800 }): Promise<{ page: Page; browserContext: BrowserContext; pageErrors: string[] }> {
  const browserContext = await context.browser.newContext({ viewport });
  const page = await browserContext.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy/i.test(message.text())) pageErrors.push(message.text());
  });
  await page.goto(context.consoleUrl);
  return { page, browserContext, pageErrors };
}

/**
 * With CONSOLE_SCREENSHOTS_DIR set (`npm run console:screenshots`), the page
 * as it stands, saved there as <name>.png: the pictures of docs/console.md.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CONSOLE_SCREENSHOTS_DIR;
  if (dir) await page.screenshot({ path: join(resolve(dir), `${name}.png`) });
}

/** Signs in with the form and opens the tenant, as an operator would. */
export async function signIn(page: Page, operator: ConsoleOperator, tenantName: string): Promise<void> {
  await page.getByLabel('Email').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: new RegExp(tenantName) }).click();
  await page.getByRole('heading', { name: 'Queues' }).waitFor();
}
