import { Injectable } from '@nestjs/common';
import { TenantScope, trustedTenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import { existing } from '../sessions/assign-session.use-case';
import { SessionChanges } from '../sessions/session-changes';
import { SessionsRepository } from '../sessions/sessions.repository';
import { OperatorCapacity } from './operator-capacity';
import type { RoutingPolicy } from './routing-policy';
import { RoutingRepository } from './routing.repository';

/** Steps (assignments and requeues) one pass takes at most before it hands the rest to the next pass. */
export const STEPS_PER_PASS = 200;

/** What one step did; 'saturated': the oldest queued session of an inbox found no one with room. */
type Step = 'requeued' | 'assigned' | 'saturated' | 'none';

/**
 * A routing pass of one tenant (docs/conversations.md#routing): gives back
 * to the queue the sessions whose assignee has been offline past their
 * inbox's limit, then assigns queued sessions of routed inboxes, oldest
 * first, each to the best eligible operator of its inbox, until no queued
 * session has one.
 *
 * Each step is one transaction taking its locks in the fixed order: the
 * tenant's routing lock (one pass of a tenant at a time across replicas),
 * the session's row (waited for, then checked again: it may have been
 * taken or closed meanwhile), then the chosen operator's capacity lock,
 * under which their open sessions are counted again. The transition
 * goes through SessionChanges as a manual one does: the same checks,
 * notifications and events.
 */
@Injectable()
export class RouteTenantUseCase {
  constructor(
    private readonly routing: RoutingRepository,
    private readonly sessions: SessionsRepository,
    private readonly changes: SessionChanges,
    private readonly capacity: OperatorCapacity,
  ) {}

  /** Runs the pass; true when it stopped at its bound with work possibly left. */
  async execute(tenantID: string): Promise<boolean> {
    // A request row is recorded only by a change its tenant's access check allowed (or by the sweep of stored policies).
    const scope = trustedTenantScope(tenantID);
    // Inboxes where no eligible operator had room for the oldest queued session: later ones would not find one either.
    const saturated = new Set<string>();
    for (let steps = 0; steps < STEPS_PER_PASS; steps += 1) {
      const step = await this.routing.transaction((runner) => this.step(runner, scope, saturated));
      if (step === 'none') return false;
    }
    return true;
  }

  private async step(runner: SqlRunner, scope: TenantScope, saturated: Set<string>): Promise<Step> {
    await this.routing.lockTenantRouting(runner, scope.tenantID);
    const policies = await this.routing.routedPolicies(runner, scope.tenantID);
    if (await this.requeueOne(runner, scope, policies)) return 'requeued';
    return this.assignOne(runner, scope, policies, saturated);
  }

  private async requeueOne(runner: SqlRunner, scope: TenantScope, policies: RoutingPolicy[]): Promise<boolean> {
    const withLimit = policies.filter((policy) => policy.requeueOfflineAfterSeconds !== null).map((policy) => policy.inboxID);
    for (;;) {
      const candidate = await this.routing.nextStranded(runner, scope.tenantID, withLimit);
      if (!candidate) return false;
      const stranded = await this.routing.lockStranded(runner, scope.tenantID, withLimit, candidate);
      // Changed while the pass waited for its lock (closed, transferred, its assignee back): look again.
      if (!stranded) continue;
      await this.changes.applyWithin(runner, scope, stranded.sessionID, existing, {
        check: () => undefined,
        write: () => this.routing.requeue(runner, scope.tenantID, stranded.sessionID),
        event: 'session.requeued',
        extra: () => ({ previousOperatorID: stranded.operatorID, offlineSince: stranded.offlineSince?.toISOString() ?? null }),
      });
      return true;
    }
  }

  /**
   * Assigns the oldest queued session of the inboxes not yet saturated in
   * this pass. An inbox whose session finds no one with room is saturated,
   * and the step ends there: the next step starts with the tenant's lock
   * again, so no step holds an operator's capacity lock while it waits for
   * another session's row (a manual take holding that row may be waiting
   * for the same operator).
   */
  private async assignOne(runner: SqlRunner, scope: TenantScope, policies: RoutingPolicy[], saturated: Set<string>): Promise<Step> {
    const byInbox = new Map(policies.map((policy) => [policy.inboxID, policy]));
    for (;;) {
      const open = policies.filter((policy) => !saturated.has(policy.inboxID)).map((policy) => policy.inboxID);
      const candidate = await this.routing.nextQueued(runner, scope.tenantID, open);
      if (!candidate) return 'none';
      const queued = await this.routing.lockQueued(runner, scope.tenantID, candidate);
      // Taken or closed while the pass waited for its lock: look again.
      if (!queued) continue;
      const policy = byInbox.get(queued.inboxID)!;
      const operatorID = await this.chooseOperator(runner, scope, policy);
      if (!operatorID) {
        saturated.add(policy.inboxID);
        return 'saturated';
      }
      await this.changes.applyWithin(runner, scope, queued.sessionID, existing, {
        check: () => undefined,
        write: async () => {
          await this.sessions.assign(runner, scope, queued.sessionID, operatorID);
          await this.routing.recordTurn(runner, scope.tenantID, operatorID);
        },
        event: 'session.assigned',
        extra: () => ({ assignedByOperatorID: operatorID, assignedBy: 'routing' as const }),
        assignedTo: operatorID,
        clearOthers: true,
      });
      return 'assigned';
    }
  }

  /** The first of the policy's ranking who still has room once their capacity lock is held. */
  private async chooseOperator(runner: SqlRunner, scope: TenantScope, policy: RoutingPolicy): Promise<string | undefined> {
    for (const operatorID of await this.routing.eligible(runner, scope.tenantID, policy)) {
      if (await this.capacity.hasRoom(runner, scope.tenantID, operatorID, policy.capacity)) return operatorID;
    }
    return undefined;
  }
}
