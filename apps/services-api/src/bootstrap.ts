import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { describePluginAuthSchemes } from '@platform/auth';
import { createHttpApp, httpSettingsOf } from '@platform/http-common';
import { ServicesApiConfig } from './config';
import { ServicesApiModule } from './services-api.module';

/** SPEC.md's services API description version. */
export const SERVICES_API_VERSION = '0.84.1';

export async function createServicesApiApp(config: ServicesApiConfig): Promise<NestFastifyApplication> {
  return createHttpApp(ServicesApiModule.forRoot(config), {
    ...httpSettingsOf(config),
    openApi: {
      title: 'Services API',
      version: SERVICES_API_VERSION,
      description: 'Multi-tenant services API of the omnichannel customer-service platform ({base_url}, paths under /v1).',
    },
    describeSecurity: describePluginAuthSchemes,
    rawBody: true,
  });
}
