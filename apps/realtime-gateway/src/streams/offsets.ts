/** Orders two stream offsets (`<ms>-<seq>`): negative, zero or positive, as Redis orders entry ids. */
export function compareOffsets(a: string, b: string): number {
  const [aMs, aSeq] = a.split('-').map(BigInt);
  const [bMs, bSeq] = b.split('-').map(BigInt);
  if (aMs !== bMs) return aMs < bMs ? -1 : 1;
  return aSeq === bSeq ? 0 : aSeq < bSeq ? -1 : 1;
}
