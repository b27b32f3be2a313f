/**
 * Orders two stream offsets (`<ms>-<seq>`): negative, zero or positive, as
 * Redis orders entry ids. Each socket compares every entry it is handed, so
 * the two numbers are compared as digit strings in place (no split, no
 * BigInt): leading zeros aside, the longer is the larger, else the first
 * digit that differs decides.
 */
export function compareOffsets(a: string, b: string): number {
  if (a === b) return 0;
  const aDash = a.indexOf('-');
  const bDash = b.indexOf('-');
  return compareDigits(a, 0, aDash, b, 0, bDash) || compareDigits(a, aDash + 1, a.length, b, bDash + 1, b.length);
}

/** Compares the decimal numbers a[aFrom, aTo) and b[bFrom, bTo), of any length. */
function compareDigits(a: string, aFrom: number, aTo: number, b: string, bFrom: number, bTo: number): number {
  while (aFrom < aTo - 1 && a.charCodeAt(aFrom) === ZERO) aFrom += 1;
  while (bFrom < bTo - 1 && b.charCodeAt(bFrom) === ZERO) bFrom += 1;
  const length = aTo - aFrom;
  if (length !== bTo - bFrom) return length < bTo - bFrom ? -1 : 1;
  for (let index = 0; index < length; index += 1) {
    const difference = a.charCodeAt(aFrom + index) - b.charCodeAt(bFrom + index);
    if (difference !== 0) return difference < 0 ? -1 : 1;
  }
  return 0;
}

const ZERO = '0'.charCodeAt(0);

/** The largest number Redis takes in an entry id (each part is an unsigned 64-bit integer). */
const MAX_ID_PART = 18_446_744_073_709_551_615n;

/**
 * Whether Redis can read the stream after `offset` (`<ms>-<seq>`, digits
 * only, as isOffset checks): each number fits an unsigned 64-bit integer,
 * and the offset is not the last id there can be (Redis refuses to read
 * after it). An offset that matches the protocol's pattern but fails this
 * names no entry of any stream: a resume with it is told to resync.
 */
export function isReadableOffset(offset: string): boolean {
  const [ms, seq] = offset.split('-').map(BigInt);
  return ms <= MAX_ID_PART && seq <= MAX_ID_PART && !(ms === MAX_ID_PART && seq === MAX_ID_PART);
}
