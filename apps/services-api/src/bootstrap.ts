import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { OpenAPIObject } from '@nestjs/swagger';
import { describePluginAuthSchemes } from '@platform/auth';
import { API_VERSION, ApiDocumentOptions, createHttpApp, describeApi, httpSettingsOf, serversOf } from '@platform/http-common';
import { ServicesApiConfig } from './config';
import { ServicesApiModule } from './services-api.module';
import { webhookEventOperations } from './webhooks/webhook-event-operations';

/** The services API's version: the platform's API version (CHANGELOG.md). */
export const SERVICES_API_VERSION = API_VERSION;

export async function createServicesApiApp(config: ServicesApiConfig): Promise<NestFastifyApplication> {
  return createHttpApp(ServicesApiModule.forRoot(config), {
    ...httpSettingsOf(config),
    openApi: SERVICES_API_DOCUMENT,
    rawBody: true,
  });
}

const SERVICES_API_DOCUMENT: ApiDocumentOptions = {
  title: 'Services API',
  version: SERVICES_API_VERSION,
  description: 'Multi-tenant services API of the omnichannel customer-service platform ({base_url}, paths under /v1).',
  servers: serversOf('services-api', 3000),
  describeSecurity: describePluginAuthSchemes,
  webhooks: webhookEventOperations(),
};

/** The services API's OpenAPI document, built without connecting to anything. */
export function describeServicesApi(config: ServicesApiConfig): Promise<OpenAPIObject> {
  return describeApi(ServicesApiModule.forRoot(config), SERVICES_API_DOCUMENT);
}
