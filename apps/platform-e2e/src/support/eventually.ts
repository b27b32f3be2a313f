/**
 * The one way the end-to-end suite waits for work that happens in the
 * background (jobs, workers, another replica): retries `assertion` until it
 * stops throwing, and returns what it returned. Past the deadline the last
 * failure is rethrown, so a test that times out says what was still wrong.
 * The deadline bounds the wait; it is not a timing assertion. Wait on what
 * the system shows (a row, a call a stub received, a metric, a log line);
 * to show that something does not happen, wait for a later event that could
 * only come after it (a barrier), never for a fixed time.
 */
export async function eventually<T>(assertion: () => T | Promise<T>, timeoutMs = 20_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
