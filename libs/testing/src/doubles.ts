import { Clock } from '@platform/scheduling';
import { AccessRequirement, Principal, TenantAccessService, TenantScope, trustedTenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import { AppException, ErrorKey } from '@platform/errors';
import { fake } from '@platform/testing-doubles';

export { fake } from '@platform/testing-doubles';

/** The tenant access check as use cases see it: grants every tenant, or refuses with `refusal`; records each check. */
export class FakeTenantAccess {
  /** Refuses every check with this error while set (e.g. 'Forbidden', 'TenantNotFound'). */
  refusal?: ErrorKey;
  /** Each check, in order: the tenant as asked and what it required. */
  readonly checks: { tenantID: string; requirement?: AccessRequirement }[] = [];
  /** Standings forgotten (`tenantID subject`). */
  readonly forgotten: string[] = [];

  asAccess(): TenantAccessService {
    const check = async (_principal: Principal, tenantID: string, requirement?: AccessRequirement): Promise<void> => {
      this.checks.push({ tenantID, requirement });
      if (this.refusal) throw new AppException(this.refusal);
    };
    return fake<TenantAccessService>({
      check,
      require: async (principal: Principal, tenantID: string, requirement?: AccessRequirement): Promise<TenantScope> => {
        await check(principal, tenantID, requirement);
        return trustedTenantScope(tenantID);
      },
      forget: async (tenantID: string, subject: string) => {
        this.forgotten.push(`${tenantID} ${subject}`);
      },
    });
  }
}

/** A clock the tests set and move. */
export class FakeClock extends Clock {
  constructor(public current = new Date('2026-03-02T12:00:00.000Z')) {
    super();
  }

  override now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/**
 * A repository's `transaction` that runs the work at once on `runner` (a
 * runner that answers every query with no rows, unless given): for use
 * cases whose repository doubles keep their own state.
 */
export function transactionOn(runner: SqlRunner = { query: async () => [] }): <T>(work: (runner: SqlRunner) => Promise<T>) => Promise<T> {
  return (work) => work(runner);
}
