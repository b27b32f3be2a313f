import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { describePluginAuthSchemes } from '@platform/auth';
import { createHttpApp, httpSettingsOf } from '@platform/http-common';
import { exactlyOnceRedisListener, RpcErrorFilter, RpcValidationPipe, TransportReadiness, transportNamespaceOf } from '@platform/transport';
import { CoreTenantsConfig } from './config';
import { CoreTenantsModule } from './core-tenants.module';
import { loadSigningKey } from './signing/signing-key';

/** Builds core-tenants: its HTTP API and its listener on the Redis transport (not yet listening). */
export async function createCoreTenantsApp(config: CoreTenantsConfig): Promise<NestFastifyApplication> {
  const signingKey = await loadSigningKey({
    privateKeyPem: config.OPERATOR_JWT_PRIVATE_KEY,
    keyFile: config.OPERATOR_JWT_KEY_FILE,
    production: config.NODE_ENV === 'production',
  });
  const app = await createHttpApp(CoreTenantsModule.forRoot(config, signingKey), {
    ...httpSettingsOf(config),
    openApi: {
      title: 'Core REST API',
      version: '0.84.1',
      description: 'Tenants, operator sign-in and the public keys of operator tokens ({core_url}).',
    },
    describeSecurity: describePluginAuthSchemes,
  });
  const transport = exactlyOnceRedisListener({ redisUrl: config.REDIS_URL, namespace: transportNamespaceOf(config) });
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
