import { CoreTenantsConfig } from '@apps/core-tenants';
import { PluginsHelpdeskConfig } from '@apps/plugins-helpdesk';
import { ServicesApiConfig } from '@apps/services-api';
import { ConfigurationError, loadConfig } from '@platform/config';

export type PlatformApp = 'core-tenants' | 'services-api' | 'plugins-helpdesk';

/** Each app's configuration class: what it reads from its environment at start. */
export const APP_CONFIGS: Record<PlatformApp, new () => object> = {
  'core-tenants': CoreTenantsConfig,
  'services-api': ServicesApiConfig,
  'plugins-helpdesk': PluginsHelpdeskConfig,
};

export const PLATFORM_APPS = Object.keys(APP_CONFIGS) as PlatformApp[];

/**
 * The variables `app` refuses to start with under `env`, in the order its
 * configuration reports them (empty: it starts). Reads the name that starts
 * each of the ConfigurationError's problems, so a test checks which variable
 * was refused, not the wording.
 */
export function refusedVariables(app: PlatformApp, env: Record<string, string>): string[] {
  try {
    loadConfig(APP_CONFIGS[app], env);
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems.map((problem) => problem.split(' ')[0]);
    throw error;
  }
  return [];
}
