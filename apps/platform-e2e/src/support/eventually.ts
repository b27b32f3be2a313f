/**
 * How long a wait may last: just under the suite's 60 s test timeout, so a
 * wait that never ends fails with what was still wrong rather than with the
 * bare timeout. Longer waits belong to tests with a longer timeout.
 */
export const WAIT_LIMIT_MS = 50_000;

/**
 * The one way the end-to-end suite waits for work that happens in the
 * background (jobs, workers, another replica): retries `assertion` until it
 * stops throwing, and returns what it returned. Past the deadline the last
 * failure is rethrown, so a test that times out says what was still wrong.
 * The deadline bounds the wait; it is not a timing assertion, so it is as
 * long as the test may run (WAIT_LIMIT_MS): a busy machine makes work slower,
 * never wrong, and only a wait that cannot end should fail. Wait on what
 * the system shows (a row, a call a stub received, a metric, a log line);
 * to show that something does not happen, wait for a later event that could
 * only come after it (a barrier), never for a fixed time.
 */
export async function eventually<T>(assertion: () => T | Promise<T>, timeoutMs = WAIT_LIMIT_MS, intervalMs = 50): Promise<T> {
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
