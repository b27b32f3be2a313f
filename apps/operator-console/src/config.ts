/** Where the platform is, as the console's server serves it in /config.json (chosen at deploy time). */
export interface ConsoleConfig {
  servicesApiUrl: string;
  coreTenantsUrl: string;
  realtimeGatewayUrl: string;
}

export async function loadConfig(): Promise<ConsoleConfig> {
  const response = await fetch('/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`/config.json answered ${response.status}`);
  return (await response.json()) as ConsoleConfig;
}
