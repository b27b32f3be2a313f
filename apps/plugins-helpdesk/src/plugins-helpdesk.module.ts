import { DynamicModule, Module } from '@nestjs/common';
import { AppFoundationModule } from '@platform/app-foundation';
import { operatorTokenSettingsOf } from '@platform/auth';
import { IdempotencyModule, idempotencySettingsOf } from '@platform/idempotency';
import { PluginsHelpdeskConfig, SANDBOX_CLOUDFLARE_API_TOKEN, SANDBOX_CLOUDFLARE_ZONE_ID } from './config';
import { DomainsModule } from './domains/domains.module';
import { HelpdeskAccessModule } from './helpdesk-access/helpdesk-access.module';

@Module({})
export class PluginsHelpdeskModule {
  static forRoot(config: PluginsHelpdeskConfig): DynamicModule {
    return {
      module: PluginsHelpdeskModule,
      imports: [
        AppFoundationModule.forRoot({
          app: 'plugins-helpdesk',
          config,
          operatorTokens: operatorTokenSettingsOf(config),
          // Its Redis user may read standings, not write them (docs/deployment.md, Redis ACLs).
          standingCopies: 'read-only',
        }),
        IdempotencyModule.forRoot(idempotencySettingsOf('plugins-helpdesk', config)),
        HelpdeskAccessModule.forRoot({
          pluginUrn: config.HELPDESK_PLUGIN_URN,
          cnameTarget: config.HELPDESK_CNAME_TARGET,
          maxDomainsPerTenant: config.HELPDESK_MAX_DOMAINS_PER_TENANT,
          pendingDomainTtlDays: config.HELPDESK_PENDING_DOMAIN_TTL_DAYS,
          domainSweepIntervalSeconds: config.HELPDESK_DOMAIN_SWEEP_INTERVAL_SECONDS,
        }),
        DomainsModule.forRoot({
          baseUrl: config.CLOUDFLARE_BASE_URL,
          // Required in production (config.ts); elsewhere the provider sandbox's.
          apiToken: config.CLOUDFLARE_API_TOKEN ?? SANDBOX_CLOUDFLARE_API_TOKEN,
          zoneID: config.CLOUDFLARE_ZONE_ID ?? SANDBOX_CLOUDFLARE_ZONE_ID,
          timeoutMs: config.CLOUDFLARE_TIMEOUT_MS,
          maxRetries: config.CLOUDFLARE_MAX_RETRIES,
        }),
      ],
    };
  }
}
