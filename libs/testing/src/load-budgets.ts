/**
 * Request budgets for benchmarks and load tests (docs/security.md, Rate limits
 * and quotas): on, so each request still pays for its charge as in production,
 * but out of reach, so a run that sends thousands of requests as one operator
 * measures the operation rather than its 429s.
 */
export const OUT_OF_REACH_RATE_LIMITS = { RATE_LIMIT_PRINCIPAL: '999999999/60s', RATE_LIMIT_TENANT: '999999999/60s' } as const;
