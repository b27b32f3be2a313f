import { Inject, Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { AUDIT_ACTOR_KINDS, AuditActorKind, SqlRunner } from '@platform/database';
import { currentActor, currentRequestID } from '@platform/observability';
import { AUDIT_ACTIONS, AuditRecord } from './audit-actions';
import { AuditEventsRepository } from './audit-events.repository';

/** The app that records (`recorded_by`): one per app, given to AuditModule. */
export const AUDIT_RECORDER = Symbol('AUDIT_RECORDER');

/** Summary keys that could hold a secret: a summary describes a change, it never carries a credential. */
const SECRET_LOOKING_KEY = /token|secret|password|passphrase|code|hash|key$/i;

/** `operator:<id>` and the like, as AuthGuard records the actor. */
function actorOf(actor: string | undefined): { kind: AuditActorKind; id: string } | undefined {
  const separator = actor?.indexOf(':') ?? -1;
  if (!actor || separator < 0) return undefined;
  const kind = actor.slice(0, separator) as AuditActorKind;
  return AUDIT_ACTOR_KINDS.includes(kind) ? { kind, id: actor.slice(separator + 1) } : undefined;
}

/**
 * Records administrative actions in the audit log, in the transaction of the
 * action (`runner` is its EntityManager), so the record exists exactly when
 * the action committed. Who acted and the request id come from the request
 * scope: AuthGuard sets the actor, and the transport and the job queues
 * carry it to the app that finishes the action.
 */
@Injectable()
export class AuditTrail {
  constructor(
    private readonly events: AuditEventsRepository,
    @Inject(AUDIT_RECORDER) private readonly recordedBy: string,
  ) {}

  /**
   * `actor` (`operator:<id>`) is for the one action whose actor is not yet
   * authenticated when it acts: an invitation accepted by signing up.
   */
  async record(runner: SqlRunner, scope: TenantScope, record: AuditRecord, actor: string | undefined = currentActor()): Promise<void> {
    const acting = actorOf(actor);
    // An administrative action always has an authenticated actor; without one the action must not commit unrecorded.
    if (!acting) throw new Error(`audit: ${record.action} has no authenticated actor`);
    const summary = record.summary ?? {};
    const secretLooking = Object.keys(summary).find((key) => SECRET_LOOKING_KEY.test(key));
    if (secretLooking) throw new Error(`audit: summary key ${secretLooking} of ${record.action} looks like a secret`);
    await this.events.append(runner, scope, {
      action: record.action,
      actorKind: acting.kind,
      actorID: acting.id,
      requestID: currentRequestID() ?? null,
      targetKind: AUDIT_ACTIONS[record.action],
      targetID: record.targetID,
      summary,
      recordedBy: this.recordedBy,
    });
  }
}
