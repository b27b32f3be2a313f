import { ValidateBy } from 'class-validator';
import { InvalidAllowEntry, OutboundAllowList } from './allow-list';
import { dnsResolver, OutboundPolicy } from './outbound-dispatcher';

/** Property decorator of the `OUTBOUND_ALLOW` setting: a comma-separated allow-list, each entry well-formed. */
export function IsOutboundAllowList(): PropertyDecorator {
  return ValidateBy({
    name: 'isOutboundAllowList',
    validator: {
      validate: (value) => {
        if (typeof value !== 'string') return false;
        try {
          OutboundAllowList.parse(value);
          return true;
        } catch (error) {
          if (error instanceof InvalidAllowEntry) return false;
          throw error;
        }
      },
      defaultMessage: (args) => {
        try {
          OutboundAllowList.parse(String(args?.value));
          return 'must be a comma-separated list of hosts, addresses or CIDRs, each optionally with :port';
        } catch (error) {
          return `must be a comma-separated list of hosts, addresses or CIDRs, each optionally with :port; ${(error as Error).message}`;
        }
      },
    },
  });
}

export interface OutboundSettings {
  /** The `OUTBOUND_ALLOW` setting. */
  allow: string;
  /** DNS servers (`host` or `host:port`) to resolve with; empty for the system's resolver. */
  dnsServers: string[];
  /** NODE_ENV=production: https only. */
  production: boolean;
}

export function outboundPolicyOf(settings: OutboundSettings): OutboundPolicy {
  return {
    allowList: OutboundAllowList.parse(settings.allow),
    httpsOnly: settings.production,
    resolve: settings.dnsServers.length > 0 ? dnsResolver(settings.dnsServers) : undefined,
  };
}
