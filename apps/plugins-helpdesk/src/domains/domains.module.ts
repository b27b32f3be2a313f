import { DynamicModule, Module } from '@nestjs/common';
import { measuredProvider, PlatformMetrics } from '@platform/observability';
import { CloudflareCustomHostnameProvider, CloudflareSettings } from '../custom-hostnames/cloudflare-custom-hostname.provider';
import { CustomHostnameProvider } from '../custom-hostnames/custom-hostname.provider';
import { AddDomainUseCase } from './add-domain.use-case';
import { DomainEvents } from './domain-events';
import { DomainsController } from './domains.controller';
import { DomainsRepository } from './domains.repository';
import { ExpiredDomainsRepository } from './expired-domains.repository';
import { HostnameDirectory } from './hostname-directory';
import { HostnameRegistration } from './hostname-registration';
import { ListDomainsUseCase } from './list-domains.use-case';
import { PendingDomainExpiry } from './pending-domain-expiry';
import { RefreshDomainUseCase } from './refresh-domain.use-case';
import { RefreshThrottle } from './refresh-throttle';
import { RemoveDomainUseCase } from './remove-domain.use-case';

/** Help-center custom domains: add, list, refresh (operation 12), remove (operation 13), and the expiry of pending ones. */
@Module({})
export class DomainsModule {
  static forRoot(cloudflare: CloudflareSettings): DynamicModule {
    return {
      module: DomainsModule,
      controllers: [DomainsController],
      providers: [
        {
          provide: CustomHostnameProvider,
          useFactory: (metrics: PlatformMetrics) =>
            measuredProvider('custom-hostnames', new CloudflareCustomHostnameProvider(cloudflare), metrics, { operations: ['register', 'find', 'findByHostname', 'remove'] }),
          inject: [PlatformMetrics],
        },
        DomainsRepository,
        DomainEvents,
        ExpiredDomainsRepository,
        PendingDomainExpiry,
        HostnameDirectory,
        HostnameRegistration,
        RefreshThrottle,
        AddDomainUseCase,
        ListDomainsUseCase,
        RefreshDomainUseCase,
        RemoveDomainUseCase,
      ],
      exports: [HostnameDirectory],
    };
  }
}
