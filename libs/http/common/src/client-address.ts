import ipaddr from 'ipaddr.js';

/**
 * The subject under which per-address limits count a client, from
 * `request.ip` (the socket's peer, or the right-most hop no trusted proxy
 * vouches for: TRUST_PROXY). Every per-address limit goes through it, so they
 * all group clients alike:
 *
 * - IPv4: the address itself (`203.0.113.7`); an IPv4-mapped IPv6 address
 *   (`::ffff:203.0.113.7`, how a dual-stack socket reports an IPv4 peer) is
 *   that IPv4 address, so one client never has two counters.
 * - IPv6: its /64 (`2001:db8:1:2::/64`). A /64 is the smallest block an ISP
 *   hands a subscriber, and one host can take any of its 2^64 addresses:
 *   counting per address would give one client unlimited counters.
 * - A port after the address (`198.51.100.77:40001`, `[2001:db8::1]:40001`,
 *   as some proxies write `X-Forwarded-For` hops) is dropped: one client is
 *   one client, whatever source port each of its connections used.
 * - Anything else (no peer address, a closed socket): the text as given,
 *   so it still has a counter of its own rather than none.
 */
export function clientAddressKey(ip: string | undefined): string {
  const text = withoutPort(ip ?? '');
  if (!ipaddr.isValid(text)) return text;
  const address = ipaddr.process(text);
  if (address.kind() === 'ipv4') return address.toString();
  const hextets = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${ipaddr.IPv6.parse(`${hextets.map((part) => part.toString(16)).join(':')}::`).toString()}/64`;
}

/** An IPv4 address followed by `:port`, or a bracketed IPv6 address with or without `:port`. */
const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
const BRACKETED_IPV6 = /^\[([^\]]+)\](?::\d{1,5})?$/;

/** The address of an `X-Forwarded-For` hop, without the port some proxies append to it. */
export function withoutPort(hop: string): string {
  const match = IPV4_WITH_PORT.exec(hop) ?? BRACKETED_IPV6.exec(hop);
  return match ? match[1] : hop;
}
