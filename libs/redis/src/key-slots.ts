/**
 * Where a key lives in a Redis Cluster. A command, script or transaction may
 * only touch keys of one slot there, so keys used together share a hash tag:
 * the part between the first `{` and the next `}`, which alone is hashed.
 */

/** The hash tag that keeps a tenant's keys used together (budgets, caches) in one slot. */
export function tenantTag(tenantID: string): string {
  return `{t:${tenantID}}`;
}

/** The hash tag of the keys about one thing that are used together (a connection, a hostname). */
export function slotTag(kind: string, id: string): string {
  return `{${kind}:${id}}`;
}

/** CRC16-CCITT (XMODEM), the checksum Redis Cluster hashes keys with. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The slot (0-16383) Redis Cluster places a key or a sharded channel in, as CLUSTER KEYSLOT answers. */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  if (open >= 0) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) key = key.slice(open + 1, close);
  }
  return crc16(new TextEncoder().encode(key)) % 16_384;
}
