import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { describePluginAuthSchemes } from '@platform/auth';
import { createHttpApp, httpSettingsOf } from '@platform/http-common';
import { PluginsHelpdeskConfig } from './config';
import { PluginsHelpdeskModule } from './plugins-helpdesk.module';

export async function createPluginsHelpdeskApp(config: PluginsHelpdeskConfig): Promise<NestFastifyApplication> {
  return createHttpApp(PluginsHelpdeskModule.forRoot(config), {
    ...httpSettingsOf(config),
    // A 253-character hostname, percent-encoded when internationalised, must reach validation (400 1002), not 404.
    maxParamLength: 4096,
    openApi: {
      title: 'Plugin API: help centers',
      version: '0.84.1',
      description: 'Plugin API for help centers and their custom domains ({plugins_url}, paths under /helpdesk/v1).',
    },
    describeSecurity: describePluginAuthSchemes,
  });
}
