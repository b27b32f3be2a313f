import { generateKeyPairSync } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { OpenAPIObject } from '@nestjs/swagger';
import { describePluginAuthSchemes } from '@platform/auth';
import { API_VERSION, ApiDocumentOptions, createHttpApp, describeApi, httpSettingsOf, serversOf } from '@platform/http-common';
import { PlatformMetrics } from '@platform/observability';
import { exactlyOnceRedisListener, RpcErrorFilter, RpcValidationPipe, TransportReadiness, transportSettingsOf } from '@platform/transport';
import { CoreTenantsConfig } from './config';
import { CoreTenantsModule } from './core-tenants.module';
import { loadSigningKey } from './signing/signing-key';

/** Builds core-tenants: its HTTP API and its listener on the Redis transport (not yet listening). */
export async function createCoreTenantsApp(config: CoreTenantsConfig): Promise<NestFastifyApplication> {
  // First: production without the transport key stops here, before anything connects.
  const transportSettings = transportSettingsOf(config);
  const signingKey = await loadSigningKey({
    privateKeyPem: config.OPERATOR_JWT_PRIVATE_KEY,
    keyFile: config.OPERATOR_JWT_KEY_FILE,
    production: config.NODE_ENV === 'production',
  });
  const app = await createHttpApp(CoreTenantsModule.forRoot(config, signingKey), {
    ...httpSettingsOf(config),
    openApi: CORE_TENANTS_DOCUMENT,
  });
  const transport = exactlyOnceRedisListener(transportSettings, app.get(PlatformMetrics));
  app.get(TransportReadiness).watch('transport listener', () => transport.strategy.connections());
  const listener = app.connectMicroservice(transport, {
    inheritAppConfig: false,
    // Deferred so the pipe and filter below apply to the handlers registered at start.
    deferInitialization: true,
  });
  listener.useGlobalPipes(new RpcValidationPipe());
  listener.useGlobalFilters(new RpcErrorFilter());
  return app;
}

const CORE_TENANTS_DOCUMENT: ApiDocumentOptions = {
  title: 'Core REST API',
  version: API_VERSION,
  description: 'Tenants, operator sign-in and the public keys of operator tokens ({core_url}).',
  servers: serversOf('core-tenants', 3002),
  describeSecurity: describePluginAuthSchemes,
};

/**
 * The core REST API's OpenAPI document, built without connecting to anything.
 * The module needs a signing key: a throwaway one, which the document never shows.
 */
export async function describeCoreTenantsApi(config: CoreTenantsConfig): Promise<OpenAPIObject> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const signingKey = await loadSigningKey({ privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), keyFile: '', production: false });
  return describeApi(CoreTenantsModule.forRoot(config, signingKey), CORE_TENANTS_DOCUMENT);
}
