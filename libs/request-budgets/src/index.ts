export { FixedWindowCounters } from './fixed-window-counters';
export type { WindowCounter, WindowLease, WindowReading } from './fixed-window-counters';
export { blockOf, LeasedWindows } from './leased-windows';
export { RateLimiter } from './rate-limiter';
export type { RateLimitRule, RateLimitVerdict } from './rate-limiter';
export { RequestBudgetsModule } from './request-budgets.module';
export { RequestQuotas } from './request-quotas';
export type { RequestQuotaSettings } from './request-quotas';
export { principalSubjectOf, quotaCounterKey, tenantSubjectOf } from './quota-keys';
