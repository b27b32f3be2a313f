/** What the help-center modules take from the app's configuration. */
export interface HelpdeskSettings {
  /** URN of the plugin record that is the helpdesk plugin. */
  pluginUrn: string;
  /** Where customers point their hostname by CNAME. */
  cnameTarget: string;
  /** Domains a tenant may have at once (HELPDESK_MAX_DOMAINS_PER_TENANT). */
  maxDomainsPerTenant: number;
  /** Days a domain may stay pending (HELPDESK_PENDING_DOMAIN_TTL_DAYS). */
  pendingDomainTtlDays: number;
  /** Seconds between sweeps for expired pending domains (HELPDESK_DOMAIN_SWEEP_INTERVAL_SECONDS). */
  domainSweepIntervalSeconds: number;
}

export const HELPDESK_SETTINGS = Symbol('HELPDESK_SETTINGS');
