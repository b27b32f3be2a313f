import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import { SessionEventData, WebhookEventData, WebhookEvents } from '@platform/webhooks';
import type { SessionView } from './sessions/sessions.repository';

type SessionEventType = 'message.created' | 'message.statusChanged' | 'session.opened' | 'session.assigned' | 'session.transferred' | 'session.participantJoined' | 'session.closed' | 'session.requeued';

/** The `data` of a session event beyond what every one carries. */
type ExtraOf<Type extends SessionEventType> = Omit<WebhookEventData[Type], keyof SessionEventData>;

/** What every session and message event carries: routing ids and the visibility snapshot of the session as committed. */
export function sessionEventDataOf(view: SessionView): SessionEventData {
  const { session } = view;
  return {
    sessionID: session.sessionID,
    inboxID: session.inboxID,
    pluginConnectionID: view.pluginConnectionID,
    listed: session.sessionListed,
    operatorID: session.operatorID,
    participantIDs: session.operatorParticipantsIDs,
    session,
  };
}

/**
 * The conversation webhook events (docs/conversations.md#events), appended
 * to the outbox in the change's transaction: subject `session:<sessionID>`
 * for a session's events, `operator:<operatorID>` for notification reads.
 * `view` is the session as read after the change, in that transaction.
 */
@Injectable()
export class ConversationEvents {
  constructor(private readonly events: WebhookEvents) {}

  async session<Type extends SessionEventType>(runner: SqlRunner, scope: TenantScope, type: Type, view: SessionView, extra: ExtraOf<Type>): Promise<void> {
    const data = { ...sessionEventDataOf(view), ...extra } as WebhookEventData[Type];
    await this.events.emit(runner, scope, { type, subject: `session:${view.session.sessionID}`, data });
  }

  async notificationsRead(runner: SqlRunner, scope: TenantScope, data: WebhookEventData['notifications.read']): Promise<void> {
    await this.events.emit(runner, scope, { type: 'notifications.read', subject: `operator:${data.operatorID}`, data });
  }
}
