import { DynamicModule, Module } from '@nestjs/common';
import { measuredProvider, PlatformMetrics } from '@platform/observability';
import { CloudflareCustomHostnames, CloudflareSettings } from '../domain-provider/cloudflare-custom-hostnames';
import { CustomHostnameProvider } from '../domain-provider/custom-hostname-provider';
import { AddDomain } from './add-domain.usecase';
import { DomainsController } from './domains.controller';
import { DomainsRepository } from './domains.repository';
import { HostnameDirectory } from './hostname-directory';
import { HostnameRegistration } from './hostname-registration';
import { ListDomains } from './list-domains.usecase';
import { RefreshDomain } from './refresh-domain.usecase';
import { RefreshThrottle } from './refresh-throttle';
import { RemoveDomain } from './remove-domain.usecase';

/** Help-center custom domains: add, list, refresh (operation 12), remove (operation 13). */
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
            measuredProvider('custom-hostnames', new CloudflareCustomHostnames(cloudflare), metrics, { operations: ['register', 'find', 'findByHostname', 'remove'] }),
          inject: [PlatformMetrics],
        },
        DomainsRepository,
        HostnameDirectory,
        HostnameRegistration,
        RefreshThrottle,
        AddDomain,
        ListDomains,
        RefreshDomain,
        RemoveDomain,
      ],
      exports: [HostnameDirectory],
    };
  }
}
