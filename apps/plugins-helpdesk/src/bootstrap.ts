import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { OpenAPIObject } from '@nestjs/swagger';
import { describePluginAuthSchemes } from '@platform/auth';
import { API_VERSION, ApiDocumentOptions, createHttpApp, describeApi, httpSettingsOf, serversOf } from '@platform/http-common';
import { PluginsHelpdeskConfig } from './config';
import { PluginsHelpdeskModule } from './plugins-helpdesk.module';

export async function createPluginsHelpdeskApp(config: PluginsHelpdeskConfig): Promise<NestFastifyApplication> {
  return createHttpApp(PluginsHelpdeskModule.forRoot(config), {
    ...httpSettingsOf(config),
    // A 253-character hostname, percent-encoded when internationalised, must reach validation (400 1002), not 404.
    maxParamLength: 4096,
    openApi: PLUGINS_HELPDESK_DOCUMENT,
  });
}

const PLUGINS_HELPDESK_DOCUMENT: ApiDocumentOptions = {
  title: 'Plugin API: help centers',
  version: API_VERSION,
  description: 'Plugin API for help centers and their custom domains ({plugins_url}, paths under /helpdesk/v1).',
  servers: serversOf('plugins-helpdesk', 3001),
  describeSecurity: describePluginAuthSchemes,
};

/** The helpdesk plugin API's OpenAPI document, built without connecting to anything. */
export function describePluginsHelpdeskApi(config: PluginsHelpdeskConfig): Promise<OpenAPIObject> {
  return describeApi(PluginsHelpdeskModule.forRoot(config), PLUGINS_HELPDESK_DOCUMENT);
}
