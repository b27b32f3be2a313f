import { Principal } from '@platform/auth';

/**
 * Who may list which sessions of a contact (docs/sessions-and-shortcuts.md),
 * the rule `operatorMaySeeSession` of `@platform/conversations` states once:
 * a plugin installed on the tenant and the tenant's own plugin connection see
 * every session; an operator sees the listed ones plus those assigned to them
 * or that they took part in.
 */
export type SessionVisibility = { kind: 'all' } | { kind: 'operator'; operatorID: string };

export function sessionVisibilityOf(principal: Principal): SessionVisibility {
  return principal.kind === 'operator' ? { kind: 'operator', operatorID: principal.operatorID } : { kind: 'all' };
}
