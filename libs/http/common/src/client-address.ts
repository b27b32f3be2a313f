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
 * - Anything else (no peer address, a closed socket): the text as given,
 *   so it still has a counter of its own rather than none.
 */
export function clientAddressKey(ip: string | undefined): string {
  const text = ip ?? '';
  if (!ipaddr.isValid(text)) return text;
  const address = ipaddr.process(text);
  if (address.kind() === 'ipv4') return address.toString();
  const hextets = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${ipaddr.IPv6.parse(`${hextets.map((part) => part.toString(16)).join(':')}::`).toString()}/64`;
}
