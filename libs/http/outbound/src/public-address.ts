import ipaddr from 'ipaddr.js';

/**
 * The IPv6 prefix of NAT64 (RFC 6052 well-known prefix, 64:ff9b::/96): on an
 * IPv6-only network with DNS64, every IPv4-only host on the internet resolves
 * into it, so it is judged by the IPv4 address it carries rather than refused.
 */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * Whether an address is on the public internet: ipaddr.js names the special
 * ranges (IANA special-purpose registries) and only `unicast` is public.
 * Everything else is refused: loopback, private (RFC 1918), unique-local,
 * link-local (cloud metadata at 169.254.169.254 included), CGNAT,
 * unspecified, broadcast, multicast, reserved and documentation ranges, and
 * the transition forms that can smuggle any IPv4 address (6to4, Teredo,
 * IPv4-translated, local-use NAT64). IPv4-mapped IPv6 (::ffff:a.b.c.d) is
 * judged as the IPv4 address it is.
 */
export function isPublicAddress(text: string): boolean {
  if (!ipaddr.isValid(text)) return false;
  const address = ipaddr.process(text);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).match(NAT64_WELL_KNOWN)) {
    const bytes = address.toByteArray().slice(12);
    return isPublicAddress(ipaddr.fromByteArray(bytes).toString());
  }
  return address.range() === 'unicast';
}
