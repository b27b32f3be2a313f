import { Inject, Injectable } from '@nestjs/common';
import { PluginConnectionPrincipal, TenantAccessService, TenantScope } from '@platform/auth';
import { afterCommit } from '@platform/database';
import { AppException } from '@platform/errors';
import { NotificationMailsRepository } from '../notifications/mails/delivery/notification-mails.repository';
import { ConversationEvents } from '../conversation-events';
import { CONVERSATIONS_SETTINGS, ConversationsSettings } from '../conversations-settings';
import { InboxesRepository } from '../inboxes/inboxes.repository';
import { NotificationCountEvents } from '../notifications/notification-count-events';
import { NotificationFanoutsRepository } from '../notifications/notification-fanouts.repository';
import { NotificationFanoutWorker } from '../notifications/notification-fanout.worker';
import { RoutingRequests } from '../routing/routing-requests';
import { SessionsRepository } from '../sessions/sessions.repository';
import type { InboundMessageDto } from './message.dto';
import { refuseLongContent } from './message-content';
import { MessagesRepository } from './messages.repository';

export interface PostInboundMessageCommand {
  principal: PluginConnectionPrincipal;
  tenantID: string;
  inboxID: string;
  contactHandle: string;
  contactName?: string;
  channelMessageID: string;
  content: string;
}

export interface PostedInboundMessage {
  /** False when the inbox had this channel message id already: the answer is that message, and nothing was written. */
  created: boolean;
  posted: InboundMessageDto;
}

/** Raised inside the transaction when the message exists already: rolls back the contact and session it may have made. */
class AlreadyStored extends Error {}

/**
 * What a contact wrote, posted by the channel plugin connection of the inbox
 * (docs/conversations.md#messages-in). In one transaction: the contact found
 * by its handle on the inbox's channel, or created; its open session on the
 * inbox continued, or a new queued one opened; the message stored unless the
 * inbox has its channel message id already (INSERT ... ON CONFLICT: two
 * concurrent posts of one id store one message, and the loser's whole
 * transaction rolls back); its notification (the assignee's, or a fan-out
 * recorded for a queued session), the assignee's notification mail item
 * when they are offline or away (docs/notifications.md), and events
 * (`session.opened`, `message.created`, and the assignee's
 * `notifications.counts` when their counts moved). Nothing is half-written: any failure rolls all back.
 */
@Injectable()
export class PostInboundMessageUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly inboxes: InboxesRepository,
    private readonly sessions: SessionsRepository,
    private readonly messages: MessagesRepository,
    private readonly fanouts: NotificationFanoutsRepository,
    private readonly events: ConversationEvents,
    private readonly countEvents: NotificationCountEvents,
    private readonly fanoutWorker: NotificationFanoutWorker,
    private readonly mails: NotificationMailsRepository,
    private readonly routingRequests: RoutingRequests,
    @Inject(CONVERSATIONS_SETTINGS) private readonly settings: ConversationsSettings,
  ) {}

  async execute(command: PostInboundMessageCommand): Promise<PostedInboundMessage> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const inbox = await this.inboxes.live(scope, command.inboxID);
    // A connection posts only to its own inboxes; another's is as unknown as a missing one.
    if (!inbox || inbox.pluginConnectionID !== command.principal.pluginConnectionID) throw new AppException('InboxNotFound');
    refuseLongContent(command.content, this.settings);

    // A redelivery (the common repeat) answers without a transaction or a lock.
    const replay = await this.replayOf(scope, inbox.inboxID, command.channelMessageID);
    if (replay) return replay;

    try {
      const posted = await this.messages.transaction(async (runner) => {
        const live = await this.inboxes.shareLive(runner, scope, inbox.inboxID);
        if (!live) throw new AppException('InboxNotFound');
        const contactID = await this.sessions.contactOfHandle(runner, scope, { channel: live.channel, handle: command.contactHandle, name: command.contactName ?? command.contactHandle });
        const { sessionID, opened } = await this.sessions.openSessionOf(runner, scope, { inboxID: live.inboxID, channel: live.channel }, contactID);
        const stored = await this.messages.insertInbound(runner, scope, { sessionID, inboxID: live.inboxID, content: command.content, channelMessageID: command.channelMessageID });
        if (!stored) throw new AlreadyStored();
        const view = (await this.sessions.view(scope, sessionID, runner))!;
        const assignee = view.session.operatorID;
        if (assignee) {
          const notified = await this.fanouts.notifyOperator(runner, scope, { operatorID: assignee, inboxID: live.inboxID, sessionID });
          if (notified) await this.countEvents.announce(runner, scope, [assignee]);
          await this.mails.record(runner, scope, { operatorID: assignee, kind: 'contactWrote', sessionID, messageID: stored.message.messageID });
        } else {
          await this.fanouts.enqueue(runner, scope, sessionID, 'notify');
          afterCommit(runner, 'notification-fanout', () => this.fanoutWorker.nudge());
        }
        if (opened) {
          await this.events.session(runner, scope, 'session.opened', view, {});
          await this.routingRequests.request(runner, scope.tenantID);
        }
        await this.events.session(runner, scope, 'message.created', view, { message: stored.message });
        return { message: stored.message, session: view.session };
      });
      return { created: true, posted };
    } catch (error) {
      if (!(error instanceof AlreadyStored)) throw error;
      return (await this.replayOf(scope, inbox.inboxID, command.channelMessageID))!;
    }
  }

  private async replayOf(scope: TenantScope, inboxID: string, channelMessageID: string): Promise<PostedInboundMessage | undefined> {
    const existing = await this.messages.byChannelMessageID(scope, inboxID, channelMessageID);
    if (!existing) return undefined;
    const view = (await this.sessions.view(scope, existing.message.sessionID))!;
    return { created: false, posted: { message: existing.message, session: view.session } };
  }
}
