import ipaddr from 'ipaddr.js';

/**
 * The IPv6 prefix of NAT64 (RFC 6052 well-known prefix, 64:ff9b::/96): on an
 * IPv6-only network with DNS64, every IPv4-only host on the internet resolves
 * into it, so it is judged by the IPv4 address it carries rather than refused.
 */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * The only IPv6 range IANA allocates for global unicast (2000::/3). Outside
 * it, an address ipaddr.js calls `unicast` is not routable on the internet:
 * the IPv4-compatible form ::a.b.c.d (::/96, deprecated by RFC 4291), which
 * carries any IPv4 address (`::7f00:1`, `::a9fe:a9fe`), and every other
 * range the IETF keeps reserved (::/8 beyond the named forms, 4000::/2 and
 * so on). Mapped and NAT64 forms are judged by their IPv4 address before.
 */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * Whether an address is on the public internet: ipaddr.js names the special
 * ranges (IANA special-purpose registries) and only `unicast` is public.
 * Everything else is refused: loopback, private (RFC 1918), unique-local,
 * link-local (cloud metadata at 169.254.169.254 included), CGNAT,
 * unspecified, broadcast, multicast, reserved and documentation ranges, and
 * the transition forms that can smuggle any IPv4 address (6to4, Teredo,
 * IPv4-translated, local-use NAT64, IPv4-compatible ::/96), and any IPv6
 * address outside global unicast (2000::/3). IPv4-mapped IPv6
 * (::ffff:a.b.c.d) is judged as the IPv4 address it is.
 */
export function isPublicAddress(given: string): boolean {
  const text = withHexTail(given);
  if (!ipaddr.isValid(text)) return false;
  const address = ipaddr.process(text);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).match(NAT64_WELL_KNOWN)) {
    const bytes = address.toByteArray().slice(12);
    return isPublicAddress(ipaddr.fromByteArray(bytes).toString());
  }
  if (address.kind() === 'ipv6' && !(address as ipaddr.IPv6).match(GLOBAL_UNICAST)) return false;
  return address.range() === 'unicast';
}

/** An IPv6 address written with a dotted IPv4 tail (`::127.0.0.1`, `::ffff:10.0.0.1`). */
const DOTTED_TAIL = /:(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(%.*)?$/;

/**
 * The IPv6 address with its dotted IPv4 tail written as two hextets, as a
 * URL or a socket writes it: ipaddr.js reads every dotted tail as
 * IPv4-mapped (`::127.0.0.1` as `::ffff:7f00:1`), which would judge an
 * IPv4-compatible address (::/96, refused) by the IPv4 address it carries.
 */
function withHexTail(text: string): string {
  const match = text.includes(':') ? DOTTED_TAIL.exec(text) : null;
  if (!match) return text;
  const octets = match.slice(1, 5).map(Number);
  if (octets.some((octet) => octet > 255)) return text;
  const hextets = `${((octets[0] << 8) | octets[1]).toString(16)}:${((octets[2] << 8) | octets[3]).toString(16)}`;
  return `${text.slice(0, match.index + 1)}${hextets}${match[5] ?? ''}`;
}
