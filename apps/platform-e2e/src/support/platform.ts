import 'reflect-metadata';
import { createCoreTenantsApp, CoreTenantsConfig } from '@apps/core-tenants';
import { createPluginsHelpdeskApp, PluginsHelpdeskConfig } from '@apps/plugins-helpdesk';
import { createServicesApiApp, ServicesApiConfig } from '@apps/services-api';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/config';
import { createDataSource } from '@platform/database';
import {
  createTestDatabase,
  FixtureBuilder,
  generateTestSigningKey,
  resetTestRedis,
  signOperatorToken,
  TEST_REDIS_URL,
  TestSigningKey,
  TokenOverrides,
} from '@platform/testing';
import { DataSource } from 'typeorm';

export type AppName = 'core-tenants' | 'services-api' | 'plugins-helpdesk';

export interface StartOptions {
  apps?: AppName[];
  /** Extra environment for every app (validated like production configuration). */
  env?: Record<string, string>;
}

/** Three real apps on loopback, over a fresh database and an empty Redis. */
export interface TestPlatform {
  coreUrl: string;
  servicesUrl: string;
  helpdeskUrl: string;
  apps: Partial<Record<AppName, NestFastifyApplication>>;
  dataSource: DataSource;
  fixtures: FixtureBuilder;
  signingKey: TestSigningKey;
  /** The environment the apps were started with (to start another replica of one). */
  env: NodeJS.ProcessEnv;
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
  await resetTestRedis();
  const signingKey = generateTestSigningKey();
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '5',
    REDIS_URL: TEST_REDIS_URL,
    OPERATOR_JWT_PRIVATE_KEY: signingKey.privateKeyPem,
    OPERATOR_JWT_PUBLIC_KEY: signingKey.publicKeyPem,
    ...options.env,
  };

  const apps: Partial<Record<AppName, NestFastifyApplication>> = {};
  const urls: Partial<Record<AppName, string>> = {};
  if (wanted.includes('core-tenants')) {
    apps['core-tenants'] = await createCoreTenantsApp(loadConfig(CoreTenantsConfig, env));
    await apps['core-tenants'].startAllMicroservices();
    urls['core-tenants'] = await listen(apps['core-tenants']);
  }
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
    dataSource,
    fixtures: new FixtureBuilder(dataSource),
    signingKey,
    env,
    tokenFor: (operatorID, overrides) => signOperatorToken(signingKey.privateKey, operatorID, overrides),
    async close() {
      for (const app of Object.values(apps).reverse()) await app?.close();
      await dataSource.destroy();
      await database.drop();
    },
  };
}
