/**
 * A keyset position of the conversation lists: an exact time (microseconds,
 * UTC, as PostgreSQL stores a timestamptz) and an id, written
 * `2026-11-20T12:34:56.123456Z_<uuid>`. Clients see it only inside a cursor
 * (`KeysetCursors`), which carries it with a MAC; `parseExactTimeAndID`
 * refuses anything `formatExactTimeAndID` cannot have made.
 */
export interface ExactTimeAndID {
  at: string;
  id: string;
}

/** SQL rendering `expression` (a timestamptz) to the microsecond in the form a position holds (a Date keeps milliseconds). */
export function exactTimeSql(expression: string): string {
  return `to_char((${expression}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

const POSITION = /^((\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})\d{3}Z_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * Whether an exact time names a real instant PostgreSQL can hold: a day
 * that exists (no 30 February: the date read back is the one written) and a
 * year from 1 (PostgreSQL has no year 0).
 */
function isRealTime(milliseconds: string, year: string): boolean {
  const time = new Date(`${milliseconds}Z`);
  return Number(year) >= 1 && !Number.isNaN(time.getTime()) && time.toISOString() === `${milliseconds}Z`;
}

export function formatExactTimeAndID(position: ExactTimeAndID): string {
  return `${position.at}_${position.id}`;
}

export function parseExactTimeAndID(text: string): ExactTimeAndID | undefined {
  const match = POSITION.exec(text);
  if (!match || !isRealTime(match[1], match[2])) return undefined;
  return { at: text.slice(0, text.indexOf('_')), id: match[3] };
}
