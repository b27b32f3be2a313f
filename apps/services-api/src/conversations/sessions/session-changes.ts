import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import type { ConversationSessionDto } from '@platform/conversations';
import { AppException } from '@platform/errors';
import { afterCommit, SqlRunner } from '@platform/database';
import type { WebhookEventData } from '@platform/webhooks';
import type { SessionEventData } from '@platform/webhooks';
import { NotificationMailsRepository } from '../notifications/mails/delivery/notification-mails.repository';
import { ConversationEvents } from '../conversation-events';
import { NotificationCountEvents } from '../notifications/notification-count-events';
import { NotificationFanoutsRepository } from '../notifications/notification-fanouts.repository';
import { NotificationFanoutWorker } from '../notifications/notification-fanout.worker';
import { RoutingRequests } from '../routing/routing-requests';
import { SessionsRepository, SessionView } from './sessions.repository';

type TransitionEvent = 'session.assigned' | 'session.transferred' | 'session.participantJoined' | 'session.closed' | 'session.requeued';

/** Transitions that free an operator's room: a routing pass may assign a queued session now (docs/conversations.md#routing). */
const FREES_CAPACITY = new Set<TransitionEvent>(['session.transferred', 'session.closed']);

/** One transition of a session's life (docs/conversations.md#session-states). */
export interface SessionChange<Type extends TransitionEvent> {
  /** Throws the catalog's refusal unless the transition may happen to the session as locked. */
  check(before: SessionView): void;
  write(runner: SqlRunner, before: SessionView): Promise<void>;
  event: Type;
  extra(before: SessionView): Omit<WebhookEventData[Type], keyof SessionEventData>;
  /** An operator to whom someone else handed the session: an `assignment` notification. */
  assignedTo?: string;
  /** Clear the session's unread notifications of everyone but the new assignee (all once closed), by the fan-out loop. */
  clearOthers?: boolean;
}

/**
 * Runs a session transition: the session locked, the rule checked on it as
 * it is, the change, its notifications and its event, in one transaction
 * (a refusal or a failure writes nothing). The lock orders the session's
 * changes, so its events are appended in the order they commit.
 */
@Injectable()
export class SessionChanges {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly fanouts: NotificationFanoutsRepository,
    private readonly events: ConversationEvents,
    private readonly countEvents: NotificationCountEvents,
    private readonly fanoutWorker: NotificationFanoutWorker,
    private readonly mails: NotificationMailsRepository,
    private readonly routingRequests: RoutingRequests,
  ) {}

  async apply<Type extends TransitionEvent>(scope: TenantScope, sessionID: string, refuseUnseen: (view: SessionView | undefined) => SessionView, change: SessionChange<Type>): Promise<ConversationSessionDto> {
    const after = await this.sessions.transaction((runner) => this.applyWithin(runner, scope, sessionID, refuseUnseen, change));
    return after.session;
  }

  /**
   * The same transition inside a transaction the caller holds (a routing
   * pass, which took the tenant's routing lock first). Its nudges run once
   * that transaction commits.
   */
  async applyWithin<Type extends TransitionEvent>(
    runner: SqlRunner,
    scope: TenantScope,
    sessionID: string,
    refuseUnseen: (view: SessionView | undefined) => SessionView,
    change: SessionChange<Type>,
  ): Promise<SessionView> {
    const before = refuseUnseen(await this.sessions.lockedView(runner, scope, sessionID));
    if (before.session.sessionState === 'closed') throw new AppException('SessionClosed');
    change.check(before);
    await change.write(runner, before);
    if (change.assignedTo) {
      await this.fanouts.notifyAssignment(runner, scope, change.assignedTo, sessionID);
      await this.countEvents.announce(runner, scope, [change.assignedTo]);
      // A mail too, later, if they are offline or away and want it (docs/notifications.md).
      await this.mails.record(runner, scope, { operatorID: change.assignedTo, kind: 'assigned', sessionID });
    }
    if (change.clearOthers) {
      await this.fanouts.enqueue(runner, scope, sessionID, 'clear');
      afterCommit(runner, 'notification-fanout', () => this.fanoutWorker.nudge());
    }
    if (FREES_CAPACITY.has(change.event)) await this.routingRequests.request(runner, scope.tenantID);
    const view = (await this.sessions.view(scope, sessionID, runner))!;
    await this.events.session(runner, scope, change.event, view, change.extra(before));
    return view;
  }
}
