import ipaddr from 'ipaddr.js';
import { ValidateBy, ValidationOptions } from 'class-validator';

/**
 * Which hops in front of an app may say who the client is (`X-Forwarded-For`),
 * in the form Fastify's `trustProxy` takes: `false` (none, the default: the
 * client is the socket's peer), a hop count, or the proxies' addresses and
 * CIDRs. Never `true`: that trusts every hop, so the client's own
 * `X-Forwarded-For` entry would become its address (docs/deployment.md).
 */
export type TrustedProxies = false | number | string[];

/** Names proxy-addr (behind Fastify's `trustProxy`) expands to its ranges. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export const MAX_TRUSTED_HOPS = 10;

export const TRUST_PROXY_RULE =
  `a hop count 0-${MAX_TRUSTED_HOPS}, or a comma-separated list of the proxies' addresses and CIDRs ` +
  '(e.g. 10.0.0.0/8,fd00::/8; loopback, linklocal and uniquelocal name those ranges); ' +
  'never "true", which lets any client choose its own address through X-Forwarded-For (docs/deployment.md), nor a range of every address (/0)';

/** Dotted-quad IPv4 or IPv6 only: ipaddr.js alone would also take classful forms such as `1.5`. */
const isAddress = (text: string) => ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);

function isAddressOrCidr(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  if (prefix === undefined) return isAddress(entry);
  // Only the prefix-length form: proxy-addr also takes `a.b.c.d/255.0.0.0`, which nobody needs here.
  if (rest.length > 0 || !/^\d{1,3}$/.test(prefix) || !isAddress(address!)) return false;
  // A range of every address (`0.0.0.0/0`, `::/0`) is `true` under another name: refused like it.
  if (Number(prefix) === 0) return false;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

/** Parses `TRUST_PROXY`; `undefined` when the value is not one of the forms above. Unset or empty: no proxy. */
export function parseTrustedProxies(value: string | undefined): TrustedProxies | undefined {
  const text = (value ?? '').trim();
  if (text === '') return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_TRUSTED_HOPS) return undefined;
    return hops === 0 ? false : hops;
  }
  const entries = text.split(',').map((entry) => entry.trim().toLowerCase());
  return entries.every(isAddressOrCidr) ? entries : undefined;
}

/** Property decorator: the variable must be a valid `TRUST_PROXY` (see `parseTrustedProxies`). */
export function IsTrustedProxies(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isTrustedProxies',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && parseTrustedProxies(value) !== undefined,
        defaultMessage: () => `must be ${TRUST_PROXY_RULE}`,
      },
    },
    options,
  );
}
