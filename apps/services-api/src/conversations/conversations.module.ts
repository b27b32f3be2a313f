import { DynamicModule, Module } from '@nestjs/common';
import { NotificationMailsRepository } from './notifications/mails/delivery/notification-mails.repository';
import { ConversationEvents } from './conversation-events';
import { CountInboxSessionsUseCase } from './inbox-sessions/count-inbox-sessions.use-case';
import { InboxSessionsController } from './inbox-sessions/inbox-sessions.controller';
import { InboxSessionsRepository } from './inbox-sessions/inbox-sessions.repository';
import { ListInboxSessionsUseCase } from './inbox-sessions/list-inbox-sessions.use-case';
import { CONVERSATIONS_SETTINGS, ConversationsSettings } from './conversations-settings';
import { CreateInboxUseCase } from './inboxes/create-inbox.use-case';
import { GetInboxUseCase } from './inboxes/get-inbox.use-case';
import { InboxesController } from './inboxes/inboxes.controller';
import { InboxesRepository } from './inboxes/inboxes.repository';
import { ListInboxesUseCase } from './inboxes/list-inboxes.use-case';
import { RemoveInboxUseCase } from './inboxes/remove-inbox.use-case';
import { RenameInboxUseCase } from './inboxes/rename-inbox.use-case';
import { ChangeDeliveryStatusUseCase } from './messages/change-delivery-status.use-case';
import { GetMessageUseCase } from './messages/get-message.use-case';
import { ListSessionMessagesUseCase } from './messages/list-session-messages.use-case';
import { MessagesController } from './messages/messages.controller';
import { MessagesRepository } from './messages/messages.repository';
import { PostInboundMessageUseCase } from './messages/post-inbound-message.use-case';
import { PostReplyUseCase } from './messages/post-reply.use-case';
import { ConversationRetention } from './retention/conversation-retention';
import { FanOutNotificationsUseCase } from './notifications/fan-out-notifications.use-case';
import { NotificationCountsRepository } from './notifications/notification-counts.repository';
import { NotificationCountEvents } from './notifications/notification-count-events';
import { NotificationFanoutWorker } from './notifications/notification-fanout.worker';
import { NotificationFanoutsRepository } from './notifications/notification-fanouts.repository';
import { AssignSessionUseCase } from './sessions/assign-session.use-case';
import { CloseSessionUseCase } from './sessions/close-session.use-case';
import { GetSessionUseCase } from './sessions/get-session.use-case';
import { JoinSessionUseCase } from './sessions/join-session.use-case';
import { ReadSessionUseCase } from './sessions/read-session.use-case';
import { TenantRoles } from './sessions/session-access';
import { SessionChanges } from './sessions/session-changes';
import { SessionsController } from './sessions/sessions.controller';
import { SessionsRepository } from './sessions/sessions.repository';
import { TakeSessionUseCase } from './sessions/take-session.use-case';
import { TransferSessionUseCase } from './sessions/transfer-session.use-case';
import { GetRoutingPolicyUseCase } from './routing/get-routing-policy.use-case';
import { OperatorCapacity } from './routing/operator-capacity';
import { RouteTenantUseCase } from './routing/route-tenant.use-case';
import { RoutingController } from './routing/routing.controller';
import { RoutingRepository } from './routing/routing.repository';
import { RoutingRequests } from './routing/routing-requests';
import { RoutingWorker } from './routing/routing.worker';
import { SetRoutingPolicyUseCase } from './routing/set-routing-policy.use-case';

/** Conversations in motion: inboxes, messages in and out, sessions' life and routing, notifications (docs/conversations.md). */
@Module({})
export class ConversationsModule {
  static forRoot(settings: ConversationsSettings): DynamicModule {
    return {
      module: ConversationsModule,
      controllers: [InboxesController, InboxSessionsController, SessionsController, MessagesController, RoutingController],
      providers: [
        { provide: CONVERSATIONS_SETTINGS, useValue: settings },
        InboxesRepository,
        InboxSessionsRepository,
        SessionsRepository,
        MessagesRepository,
        NotificationFanoutsRepository,
        NotificationCountsRepository,
        NotificationMailsRepository,
        ConversationEvents,
        NotificationCountEvents,
        TenantRoles,
        SessionChanges,
        NotificationFanoutWorker,
        FanOutNotificationsUseCase,
        ConversationRetention,
        CreateInboxUseCase,
        ListInboxesUseCase,
        RenameInboxUseCase,
        RemoveInboxUseCase,
        PostInboundMessageUseCase,
        PostReplyUseCase,
        ChangeDeliveryStatusUseCase,
        ListSessionMessagesUseCase,
        GetSessionUseCase,
        TakeSessionUseCase,
        AssignSessionUseCase,
        TransferSessionUseCase,
        JoinSessionUseCase,
        CloseSessionUseCase,
        ReadSessionUseCase,
        ListInboxSessionsUseCase,
        CountInboxSessionsUseCase,
        GetInboxUseCase,
        GetMessageUseCase,
        RoutingRepository,
        RoutingRequests,
        OperatorCapacity,
        RouteTenantUseCase,
        RoutingWorker,
        GetRoutingPolicyUseCase,
        SetRoutingPolicyUseCase,
      ],
      exports: [NotificationFanoutWorker, ConversationRetention, RoutingWorker],
    };
  }
}
