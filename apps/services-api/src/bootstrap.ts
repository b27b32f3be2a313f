import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { describePluginAuthSchemes } from '@platform/auth';
import { createHttpApp } from '@platform/http-common';
import { ServicesApiConfig } from './config';
import { ServicesApiModule } from './services-api.module';

/** SPEC.md's services API description version. */
export const SERVICES_API_VERSION = '0.84.1';

export async function createServicesApiApp(config: ServicesApiConfig): Promise<NestFastifyApplication> {
  return createHttpApp(ServicesApiModule.forRoot(config), {
    bodyLimitBytes: config.HTTP_BODY_LIMIT_BYTES,
    headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
    openApi: {
      title: 'Services API',
      version: SERVICES_API_VERSION,
      description: 'Multi-tenant services API of the omnichannel customer-service platform ({base_url}, paths under /v1).',
    },
    describeSecurity: describePluginAuthSchemes,
    rawBody: true,
  });
}
