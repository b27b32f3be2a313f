import { Injectable } from '@nestjs/common';
import { AppException } from '@platform/errors';
import { CustomHostnameProvider, ProvisionedHostname } from '../custom-hostnames/custom-hostname.provider';

/**
 * Registers a hostname at the provider, or takes over the provider's record of
 * it when the zone already has one. Only called once the hostname is reserved
 * in our table (the unique index makes that reservation exclusive), so a record
 * the zone already holds can only be ours: left by an add whose answer was lost
 * (a timeout, a retried create) or by a removal that failed half-way.
 */
@Injectable()
export class HostnameRegistration {
  constructor(private readonly provider: CustomHostnameProvider) {}

  async register(hostname: string): Promise<ProvisionedHostname> {
    const registration = await this.provider.register(hostname);
    if (registration.outcome === 'registered') return registration.hostname;
    if (registration.outcome === 'refused') throw new AppException('DomainHostnameRefused');
    const existing = await this.provider.findByHostname(hostname);
    // "Duplicate" yet not listed: the provider contradicts itself; try again later.
    if (!existing) throw new AppException('DomainProvisioning');
    return existing;
  }
}
