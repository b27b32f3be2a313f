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
