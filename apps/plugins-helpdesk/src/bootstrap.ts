import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { describePluginAuthSchemes } from '@platform/auth';
import { createHttpApp } from '@platform/http-common';
import { PluginsHelpdeskConfig } from './config';
import { PluginsHelpdeskModule } from './plugins-helpdesk.module';

export async function createPluginsHelpdeskApp(config: PluginsHelpdeskConfig): Promise<NestFastifyApplication> {
  return createHttpApp(PluginsHelpdeskModule.forRoot(config), {
    bodyLimitBytes: config.HTTP_BODY_LIMIT_BYTES,
    openApi: {
      title: 'Plugin API: help centers',
      version: '0.84.1',
      description: 'Plugin API for help centers and their custom domains ({plugins_url}, paths under /helpdesk/v1).',
    },
    describeSecurity: describePluginAuthSchemes,
  });
}
