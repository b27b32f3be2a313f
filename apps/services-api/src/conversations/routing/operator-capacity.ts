import { Injectable } from '@nestjs/common';
import { AppException } from '@platform/errors';
import type { SqlRunner } from '@platform/database';
import { isRouted } from './routing-policy';
import { RoutingRepository } from './routing.repository';

export interface Admission {
  tenantID: string;
  inboxID: string;
  operatorID: string;
  /** An owner's explicit choice to go past the capacity (assign, transfer). */
  override: boolean;
}

/**
 * Every assignment of a session to an operator, automatic or manual, passes
 * here inside its transaction, after the session's lock: the operator's
 * capacity lock is taken (the last in the lock order), so no two assignments
 * count the same room. On an inbox with a routed policy the operator's open
 * sessions tenant-wide must be under its capacity (409 1949) unless an
 * owner overrides, and the assignment is their latest turn. A manual inbox
 * answers as it always did; its assignments still take the lock, since
 * they add to the load a routed inbox counts.
 */
@Injectable()
export class OperatorCapacity {
  constructor(private readonly routing: RoutingRepository) {}

  async admit(runner: SqlRunner, admission: Admission): Promise<void> {
    const { tenantID, inboxID, operatorID } = admission;
    await this.routing.lockOperatorCapacity(runner, tenantID, operatorID);
    const policy = await this.routing.policyOfInbox(runner, tenantID, inboxID);
    if (!policy || !isRouted(policy)) return;
    if (!admission.override && (await this.routing.openLoad(runner, tenantID, operatorID)) >= policy.capacity) throw new AppException('OperatorAtCapacity');
    await this.routing.recordTurn(runner, tenantID, operatorID);
  }

  /** Locks the operator and answers whether they have room under `capacity` (the automatic pass: it never overrides). */
  async hasRoom(runner: SqlRunner, tenantID: string, operatorID: string, capacity: number): Promise<boolean> {
    await this.routing.lockOperatorCapacity(runner, tenantID, operatorID);
    return (await this.routing.openLoad(runner, tenantID, operatorID)) < capacity;
  }
}
