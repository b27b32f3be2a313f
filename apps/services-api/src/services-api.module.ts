import { DynamicModule, Module } from '@nestjs/common';
import { AppFoundationModule } from '@platform/app-foundation';
import { operatorTokenSettingsOf } from '@platform/auth';
import { KeysetCursorsModule } from '@platform/http-common';
import { outboundPolicyOf } from '@platform/http-outbound';
import { IdempotencyModule, idempotencySettingsOf } from '@platform/idempotency';
import { TransportClientModule, transportSettingsOf } from '@platform/transport';
import { AuditEventsModule } from './audit-events/audit-events.module';
import { CampaignModelsModule } from './campaign-models/campaign-models.module';
import { TEMPLATE_SUBMISSION_QUEUE } from './campaign-models/models/template-submission.job';
import { CampaignsModule } from './campaigns/campaigns.module';
import { DEVELOPMENT_SIGN_UP_SECRET, ServicesApiConfig } from './config';
import { ContactSessionsModule } from './conversations/contacts/sessions/contact-sessions.module';
import { ContactsModule } from './conversations/contacts/contacts.module';
import { ConversationsModule } from './conversations/conversations.module';
import { conversationsSettingsOf } from './conversations/conversations-settings';
import { JobsModule } from './jobs/jobs.module';
import { NotificationMailsModule } from './conversations/notifications/mails/notification-mails.module';
import { NotificationsModule } from './conversations/notifications/notifications.module';
import { RealtimeTicketsModule } from './conversations/realtime-tickets/realtime-tickets.module';
import { PluginConnectionsModule } from './plugin-connections/plugin-connections.module';
import { PresenceModule } from './presence/presence.module';
import { presenceSettingsOf } from './presence/presence-settings';
import { SearchModule } from './conversations/search/search.module';
import { ShortcutsModule } from './conversations/shortcuts/shortcuts.module';
import { SIGN_UP_MAIL_QUEUE } from './sign-up/mail/sign-up-mail.job';
import { SignUpModule } from './sign-up/sign-up.module';
import { TeamModule } from './team/team.module';
import { ProcessingTracesModule } from './processing-traces/processing-traces.module';
import { WebhookEndpointsModule } from './webhooks/endpoints/webhook-endpoints.module';
import { webhookEndpointsSettingsOf } from './webhooks/endpoints/webhook-endpoints-settings';
import { WebhookDeliveriesModule } from './webhooks/webhook-deliveries.module';
import { WebhookSigningSecretsModule } from './webhooks/signing-secrets';

@Module({})
export class ServicesApiModule {
  static forRoot(config: ServicesApiConfig): DynamicModule {
    const outboundPolicy = outboundPolicyOf({
      allow: config.OUTBOUND_ALLOW,
      dnsServers: config.OUTBOUND_DNS_SERVERS ? config.OUTBOUND_DNS_SERVERS.split(',') : [],
      production: config.NODE_ENV === 'production',
    });
    return {
      module: ServicesApiModule,
      imports: [
        AppFoundationModule.forRoot({
          app: 'services-api',
          config,
          operatorTokens: operatorTokenSettingsOf(config),
        }),
        IdempotencyModule.forRoot(idempotencySettingsOf('services-api', config)),
        TransportClientModule.forRoot(transportSettingsOf(config), config.CORE_TENANTS_RPC_TIMEOUT_MS),
        JobsModule.forRoot({
          databaseUrl: config.DATABASE_URL,
          applicationName: 'services-api-jobs',
          poolSize: 2,
          pollingIntervalMs: config.JOBS_POLLING_INTERVAL_MS,
          // Webhook deliveries run on no queue (WebhookDeliveryEngine claims their rows): their gauges are platform_webhook_deliveries_*.
          measuredQueues: [SIGN_UP_MAIL_QUEUE, TEMPLATE_SUBMISSION_QUEUE],
        }),
        PluginConnectionsModule,
        TeamModule,
        CampaignModelsModule.forRoot({
          provider: {
            baseUrl: config.WHATSAPP_API_BASE_URL,
            version: config.WHATSAPP_API_VERSION,
            accessToken: config.WHATSAPP_ACCESS_TOKEN,
            timeoutMs: config.WHATSAPP_TIMEOUT_MS,
          },
          retry: { firstDelaySeconds: config.TEMPLATE_SUBMISSION_RETRY_SECONDS, maxDelaySeconds: config.TEMPLATE_SUBMISSION_RETRY_MAX_SECONDS },
          webhookAppSecret: config.WHATSAPP_APP_SECRET,
          webhookVerifyToken: config.WHATSAPP_WEBHOOK_VERIFY_TOKEN,
        }),
        CampaignsModule,
        ShortcutsModule,
        ContactSessionsModule,
        ContactsModule,
        NotificationsModule,
        ConversationsModule.forRoot(conversationsSettingsOf(config)),
        NotificationMailsModule.forRoot(config),
        SearchModule,
        PresenceModule.forRoot(presenceSettingsOf(config)),
        RealtimeTicketsModule,
        SignUpModule.forRoot(config),
        ProcessingTracesModule.forRoot(
          {
            providerTimeoutMs: config.TRACE_PROVIDER_TIMEOUT_MS,
            retrievalCacheTtlSeconds: config.TRACE_RETRIEVAL_CACHE_TTL_SECONDS,
          },
          outboundPolicy,
        ),
        AuditEventsModule.forRoot({ retentionDays: config.AUDIT_RETENTION_DAYS }),
        // The cursors' MAC: a key derived from SIGN_UP_SECRET for cursors alone (docs/security.md, Keys and rotation).
        KeysetCursorsModule.forRoot({ current: config.SIGN_UP_SECRET ?? DEVELOPMENT_SIGN_UP_SECRET, previous: config.SIGN_UP_SECRET_PREVIOUS }),
        WebhookSigningSecretsModule.forRoot({ current: config.WEBHOOK_SECRETS_KEY, previous: config.WEBHOOK_SECRETS_KEY_PREVIOUS }),
        WebhookEndpointsModule.forRoot(webhookEndpointsSettingsOf(config)),
        WebhookDeliveriesModule.forRoot(
          {
            timeoutMs: config.WEBHOOK_DELIVERY_TIMEOUT_MS,
            retryDelaysSeconds: config.WEBHOOK_RETRY_DELAYS_SECONDS.split(',').map(Number),
            disableAfterHours: config.WEBHOOK_DISABLE_AFTER_HOURS,
            maxPendingPerEndpoint: config.WEBHOOK_MAX_PENDING_PER_ENDPOINT,
            retentionDays: config.WEBHOOK_DELIVERY_RETENTION_DAYS,
            dispatchPollMs: config.WEBHOOK_DISPATCH_POLL_MS,
            concurrency: config.WEBHOOK_DELIVERY_CONCURRENCY,
          },
          outboundPolicy,
        ),
      ],
    };
  }
}
