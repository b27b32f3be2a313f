/**
 * Retries an assertion until it passes or the deadline is reached, for
 * effects that happen in the background (jobs, workers). The deadline bounds
 * the wait; it is not a timing assertion.
 */
export async function eventually(assertion: () => unknown, timeoutMs = 10_000, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
