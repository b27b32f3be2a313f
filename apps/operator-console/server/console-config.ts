/**
 * Where the console's browser code finds the platform, chosen at deploy time
 * (one build for every environment): the CONSOLE_* variables, served as
 * /config.json and named in the Content-Security-Policy's connect-src.
 */
export interface ConsoleConfig {
  /** services-api, e.g. https://api.example.com */
  servicesApiUrl: string;
  /** core-tenants: sign-in and the operator's tenants */
  coreTenantsUrl: string;
  /** the real-time gateway's origin, e.g. wss://realtime.example.com */
  realtimeGatewayUrl: string;
}

export interface ConsoleServerSettings {
  config: ConsoleConfig;
  port: number;
  host: string;
}

/** An http(s) or ws(s) origin: scheme, host and port, nothing after it. */
function origin(name: string, value: string | undefined, schemes: string[]): string {
  if (!value) throw new Error(`${name} is required`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be a URL, got ${JSON.stringify(value)}`);
  }
  if (!schemes.includes(url.protocol)) throw new Error(`${name} must be a ${schemes.map((scheme) => scheme.replace(':', '')).join(' or ')} URL, got ${JSON.stringify(value)}`);
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) throw new Error(`${name} must be an origin (scheme, host, port), got ${JSON.stringify(value)}`);
  return url.origin;
}

/** Reads and checks the CONSOLE_* variables; throws naming the first one at fault. */
export function consoleSettingsFrom(env: NodeJS.ProcessEnv): ConsoleServerSettings {
  const port = Number(env.CONSOLE_PORT ?? 3004);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`CONSOLE_PORT must be a port number, got ${JSON.stringify(env.CONSOLE_PORT)}`);
  return {
    port,
    host: env.CONSOLE_HOST ?? '0.0.0.0',
    config: {
      servicesApiUrl: origin('CONSOLE_SERVICES_API_URL', env.CONSOLE_SERVICES_API_URL, ['http:', 'https:']),
      coreTenantsUrl: origin('CONSOLE_CORE_TENANTS_URL', env.CONSOLE_CORE_TENANTS_URL, ['http:', 'https:']),
      realtimeGatewayUrl: origin('CONSOLE_REALTIME_GATEWAY_URL', env.CONSOLE_REALTIME_GATEWAY_URL, ['ws:', 'wss:']),
    },
  };
}

/**
 * The console's Content-Security-Policy: its own scripts and styles only (no
 * inline script or style, no eval), and network access to the three origins
 * it calls, nothing else.
 */
export function contentSecurityPolicy(config: ConsoleConfig): string {
  const connect = [...new Set([config.servicesApiUrl, config.coreTenantsUrl, config.realtimeGatewayUrl])];
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${connect.join(' ')}`,
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
