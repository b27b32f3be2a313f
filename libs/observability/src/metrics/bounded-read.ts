/** Longest a scrape waits for a reading: well under Prometheus's default 10 s scrape timeout. */
export const SCRAPE_READ_TIMEOUT_MS = 2_000;

export class ScrapeReadTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`no reading within ${timeoutMs} ms`);
    this.name = 'ScrapeReadTimeout';
  }
}

/**
 * Wraps a reading taken at scrape time (a query) so that a slow database can
 * neither hang the scrape nor pile queries up:
 * - a caller waits at most `timeoutMs`, then gets ScrapeReadTimeout;
 * - at most one reading is under way: callers meanwhile (the other gauges of
 *   the same scrape, or the next scrape while the database is still slow)
 *   share it instead of starting another.
 * A reading that finishes after its callers gave up is simply dropped.
 */
export function boundedRead<T>(read: () => Promise<T>, timeoutMs = SCRAPE_READ_TIMEOUT_MS): () => Promise<T> {
  let underWay: Promise<T> | undefined;
  return () => {
    underWay ??= read().finally(() => {
      underWay = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ScrapeReadTimeout(timeoutMs)), timeoutMs);
    });
    return Promise.race([underWay, timeout]).finally(() => clearTimeout(timer));
  };
}
