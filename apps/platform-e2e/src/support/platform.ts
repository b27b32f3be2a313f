import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { createCoreTenantsApp, CoreTenantsConfig } from '@apps/core-tenants';
import { createPluginsHelpdeskApp, PluginsHelpdeskConfig } from '@apps/plugins-helpdesk';
import { createServicesApiApp, ServicesApiConfig } from '@apps/services-api';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  CoreTenantsClient,
  createCoreTenantsClient,
  createPluginsHelpdeskClient,
  createServicesApiClient,
  PluginsHelpdeskClient,
  ServicesApiClient,
} from '@platform/api-client';
import { loadConfig } from '@platform/config';
import { createDataSource } from '@platform/database';
import {
  BillingStub,
  createTestDatabase,
  FixtureBuilder,
  generateTestSigningKey,
  resetTestRedis,
  signOperatorToken,
  testRedisEnv,
  TestSigningKey,
  TokenOverrides,
  VmStub,
} from '@platform/testing';
import { DataSource } from 'typeorm';
import { ContractApp, ResponseContract } from './response-contract';

export type AppName = 'core-tenants' | 'services-api' | 'plugins-helpdesk';

export interface StartOptions {
  apps?: AppName[];
  /** Extra environment for every app (validated like production configuration). */
  env?: Record<string, string>;
  /** Empty the tests' Redis database first (default); off for a second platform beside a running one. */
  resetRedis?: boolean;
}

/** Three real apps on loopback, over a fresh database and an empty Redis. */
export interface TestPlatform {
  coreUrl: string;
  servicesUrl: string;
  helpdeskUrl: string;
  apps: Partial<Record<AppName, NestFastifyApplication>>;
  /** Typed clients of the apps' OpenAPI documents (libs/api-client), on the URLs above. */
  api: { core: CoreTenantsClient; services: ServicesApiClient; helpdesk: PluginsHelpdeskClient };
  dataSource: DataSource;
  fixtures: FixtureBuilder;
  signingKey: TestSigningKey;
  /** The billing provider (Stripe API subset) core-tenants talks to. */
  billing: BillingStub;
  /** The hosted-VM provider core-tenants talks to. */
  vms: VmStub;
  /** The environment the apps were started with. */
  env: NodeJS.ProcessEnv;
  /** Starts core-tenants again after `apps['core-tenants']` was closed (a restart). */
  restartCoreTenants(): Promise<void>;
  /** A valid operator token, signed with the platform's key. */
  tokenFor(operatorID: string, overrides?: TokenOverrides): Promise<string>;
  close(): Promise<void>;
}

async function listen(app: NestFastifyApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  return app.getUrl().then((url) => url.replace('[::1]', '127.0.0.1'));
}

export async function startPlatform(options: StartOptions = {}): Promise<TestPlatform> {
  const wanted = options.apps ?? ['core-tenants', 'services-api', 'plugins-helpdesk'];
  const database = await createTestDatabase();
  if (options.resetRedis !== false) await resetTestRedis();
  const signingKey = generateTestSigningKey();
  const billing = await new BillingStub().start();
  const vms = await new VmStub().start();
  const env: NodeJS.ProcessEnv = {
    BILLING_API_URL: billing.url,
    BILLING_API_KEY: 'sk_test_platform',
    BILLING_CANCELLATION_POLL_MS: '100',
    BILLING_CANCELLATION_RETRY_BASE_MS: '200',
    BILLING_CANCELLATION_RETRY_MAX_MS: '400',
    VM_PROVIDER_URL: vms.url,
    VM_PROVIDER_TOKEN: 'vm-test-token',
    // Per-call limits far above a loopback answer on a loaded machine (docs/testing.md); the transport's
    // limit stays above a provider's with the database budget, as core-tenants checks at boot, so a slow
    // provider is still a 502 rather than a 504. A test that proves a limit makes its stub hang.
    BILLING_TIMEOUT_MS: '5000',
    VM_PROVIDER_TIMEOUT_MS: '5000',
    INSTALL_DATABASE_BUDGET_MS: '2000',
    CORE_TENANTS_RPC_TIMEOUT_MS: '10000',
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '5',
    // REDIS_URL, and REDIS_CLUSTER_NODES when the tests run on a Redis Cluster.
    ...testRedisEnv(),
    OPERATOR_JWT_PRIVATE_KEY: signingKey.privateKeyPem,
    OPERATOR_JWT_PUBLIC_KEY: signingKey.publicKeyPem,
    // The provider stubs (trace providers) listen on loopback, on ports picked at random.
    OUTBOUND_ALLOW: '127.0.0.1',
    // One transport key per platform, shared by its apps as the Secret shares it in a deployment.
    TRANSPORT_SECRET: randomBytes(32).toString('base64url'),
    ...options.env,
  };

  const apps: Partial<Record<AppName, NestFastifyApplication>> = {};
  const urls: Partial<Record<AppName, string>> = {};
  const startCoreTenants = async () => {
    apps['core-tenants'] = await createCoreTenantsApp(loadConfig(CoreTenantsConfig, env));
    await apps['core-tenants'].startAllMicroservices();
    urls['core-tenants'] = await listen(apps['core-tenants']);
  };
  if (wanted.includes('core-tenants')) await startCoreTenants();
  if (wanted.includes('services-api')) {
    apps['services-api'] = await createServicesApiApp(loadConfig(ServicesApiConfig, env));
    urls['services-api'] = await listen(apps['services-api']);
  }
  if (wanted.includes('plugins-helpdesk')) {
    apps['plugins-helpdesk'] = await createPluginsHelpdeskApp(loadConfig(PluginsHelpdeskConfig, env));
    urls['plugins-helpdesk'] = await listen(apps['plugins-helpdesk']);
  }

  const dataSource = createDataSource({ url: database.url, poolSize: 3, applicationName: 'tests' });
  await dataSource.initialize();

  return {
    coreUrl: urls['core-tenants'] ?? '',
    servicesUrl: urls['services-api'] ?? '',
    helpdeskUrl: urls['plugins-helpdesk'] ?? '',
    apps,
    api: {
      core: checkedAgainstDocument('core-tenants', createCoreTenantsClient(urls['core-tenants'] ?? '')),
      services: checkedAgainstDocument('services-api', createServicesApiClient(urls['services-api'] ?? '')),
      helpdesk: checkedAgainstDocument('plugins-helpdesk', createPluginsHelpdeskClient(urls['plugins-helpdesk'] ?? '')),
    },
    dataSource,
    fixtures: new FixtureBuilder(dataSource),
    signingKey,
    billing,
    vms,
    env,
    restartCoreTenants: startCoreTenants,
    tokenFor: (operatorID, overrides) => signOperatorToken(signingKey.privateKey, operatorID, overrides),
    async close() {
      for (const app of Object.values(apps).reverse()) await app?.close();
      await dataSource.destroy();
      await database.drop();
      await billing.stop();
      await vms.stop();
    },
  };
}

let contract: ResponseContract | undefined;

/** The client, every answer of which must keep to the app's committed OpenAPI document (./response-contract.ts). */
function checkedAgainstDocument<Client extends { use: (middleware: ReturnType<ResponseContract['middleware']>) => void }>(app: ContractApp, client: Client): Client {
  contract ??= ResponseContract.committed();
  client.use(contract.middleware(app));
  return client;
}
