/**
 * How the bench scenarios start the platform's three apps: as their images
 * do (`node dist/apps/<app>/src/main.js`), each on its own port, one after
 * the other, each ready (`/health/ready` 200) before the next starts.
 * A scenario says how one app is started (plain, in a memory cgroup, with a
 * preload) through the `start` callback of startPlatformApps.
 */

/** The apps in the order they start: core-tenants first, it signs the tokens the others check. */
export const PLATFORM_APPS = ['core-tenants', 'services-api', 'plugins-helpdesk'] as const;

export type PlatformApp = (typeof PLATFORM_APPS)[number];

export interface PlatformPorts {
  core: number;
  services: number;
  helpdesk: number;
}

/** One app as a scenario starts it. */
export interface AppLaunch {
  name: PlatformApp;
  /** Its compiled entry point, relative to the repository root. */
  script: string;
  port: number;
  /** Base URL of its HTTP server. */
  url: string;
  readyUrl: string;
}

const PORT_OF: Record<PlatformApp, keyof PlatformPorts> = { 'core-tenants': 'core', 'services-api': 'services', 'plugins-helpdesk': 'helpdesk' };

/** The settings naming each app's port, and where services-api and plugins-helpdesk read core-tenants' signing keys. */
export function platformAddresses(ports: PlatformPorts): Record<string, string> {
  return {
    CORE_TENANTS_PORT: String(ports.core),
    SERVICES_API_PORT: String(ports.services),
    PLUGINS_HELPDESK_PORT: String(ports.helpdesk),
    OPERATOR_JWKS_URL: `http://127.0.0.1:${ports.core}/.well-known/jwks.json`,
  };
}

/** The three apps, in PLATFORM_APPS order, on `ports`. */
export function platformLaunches(ports: PlatformPorts): AppLaunch[] {
  return PLATFORM_APPS.map((name) => launchOf(name, ports));
}

/** One app on `ports`. */
export function launchOf(name: PlatformApp, ports: PlatformPorts): AppLaunch {
  const port = ports[PORT_OF[name]];
  const url = `http://127.0.0.1:${port}`;
  return { name, script: `dist/apps/${name}/src/main.js`, port, url, readyUrl: `${url}/health/ready` };
}

/**
 * Starts `launches` one after the other with `start` (which answers once the
 * app is ready), adding each to `started` as soon as it runs, so the caller's
 * `finally` stops those already started when a later one fails.
 */
export async function startPlatformApps<T>(launches: AppLaunch[], start: (launch: AppLaunch, index: number) => Promise<T>, started: T[] = []): Promise<T[]> {
  for (const [index, launch] of launches.entries()) started.push(await start(launch, index));
  return started;
}
