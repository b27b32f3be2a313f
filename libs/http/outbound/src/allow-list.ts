import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** One entry of the outbound allow-list: a host name or an address range, optionally on one port only. */
type AllowEntry = { port?: number } & ({ kind: 'host'; host: string } | { kind: 'range'; range: Range });

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;

export class InvalidAllowEntry extends Error {}

function portOf(text: string, entry: string): number {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65_535) throw new InvalidAllowEntry(`"${entry}": the port must be 1-65535`);
  return port;
}

/** An IPv4-mapped IPv6 range (::ffff:10.0.0.0/104) is the IPv4 range it maps, as addresses are compared in that form. */
function unmapped([address, bits]: Range): Range {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) return [(address as ipaddr.IPv6).toIPv4Address(), Math.max(0, bits - 96)];
  return [address, bits];
}

function rangeOf(text: string): Range | undefined {
  if (text.includes('/')) {
    try {
      return unmapped(ipaddr.parseCIDR(text));
    } catch {
      return undefined;
    }
  }
  if (!isIP(text)) return undefined;
  const address = ipaddr.process(text);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/**
 * Parses one entry: `host`, `host:port`, an address or CIDR (`10.1.2.3`,
 * `10.0.0.0/8`, `fd00::/8`), optionally with a port (`127.0.0.1:4015`,
 * `[::1]:4015`, `[fd00::/8]:443`: an IPv6 form takes brackets to carry one).
 */
function parseEntry(entry: string): AllowEntry {
  let target = entry;
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(entry);
  if (bracketed) {
    target = bracketed[1];
    if (bracketed[2] !== undefined) port = portOf(bracketed[2], entry);
  } else if (entry.split(':').length === 2) {
    const colon = entry.lastIndexOf(':');
    target = entry.slice(0, colon);
    port = portOf(entry.slice(colon + 1), entry);
  }
  const range = rangeOf(target);
  if (range) return { kind: 'range', range, port };
  if (bracketed || target.includes(':') || target.includes('/') || !HOST_NAME.test(target)) {
    throw new InvalidAllowEntry(`"${entry}": expected a host name, an address or a CIDR, each optionally with :port`);
  }
  return { kind: 'host', host: target.toLowerCase().replace(/\.$/, ''), port };
}

/**
 * Destinations an operator trusts although they are not public, from the
 * `OUTBOUND_ALLOW` setting (comma-separated). Empty by default: then only
 * public addresses are reached.
 */
export class OutboundAllowList {
  private constructor(private readonly entries: AllowEntry[]) {}

  /** Throws InvalidAllowEntry naming the first malformed entry. */
  static parse(setting: string): OutboundAllowList {
    const entries = setting
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry.length > 0)
      .map(parseEntry);
    return new OutboundAllowList(entries);
  }

  static readonly empty = new OutboundAllowList([]);

  /** A host name the operator trusts on this port, whatever it resolves to. */
  allowsHost(hostname: string, port: number): boolean {
    const host = hostname.toLowerCase().replace(/\.$/, '');
    return this.entries.some((entry) => entry.kind === 'host' && entry.host === host && (entry.port === undefined || entry.port === port));
  }

  /** An address the operator trusts on this port although it may not be public. */
  allowsAddress(text: string, port: number): boolean {
    if (!ipaddr.isValid(text)) return false;
    const address = ipaddr.process(text);
    return this.entries.some(
      (entry) =>
        entry.kind === 'range' &&
        entry.range[0].kind() === address.kind() &&
        address.match(entry.range as [ipaddr.IPv4, number]) &&
        (entry.port === undefined || entry.port === port),
    );
  }
}
