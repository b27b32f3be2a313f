import { Injectable } from '@nestjs/common';
import { Principal } from '@platform/auth';
import { listMeta, offsetOf, PageRequest } from '@platform/http-common';
import { HelpdeskAccess } from '../helpdesk-access/helpdesk-access.service';
import { DomainListResponse } from './domain.dto';
import { domainView } from './domain-view';
import { DomainsRepository } from './domains.repository';

export interface ListDomainsCommand {
  principal: Principal;
  tenantID: string;
  page: PageRequest;
}

/** The help center's domains, by hostname. */
@Injectable()
export class ListDomainsUseCase {
  constructor(
    private readonly access: HelpdeskAccess,
    private readonly domains: DomainsRepository,
  ) {}

  async execute({ principal, tenantID, page }: ListDomainsCommand): Promise<DomainListResponse> {
    const scope = await this.access.require(principal, tenantID);
    const totalCount = await this.domains.count(scope);
    const offset = offsetOf(page, totalCount);
    const rows = offset === undefined ? [] : await this.domains.list(scope, { offset, limit: page.perPage });
    return { data: rows.map(domainView), meta: listMeta(page, totalCount, rows.length) };
  }
}
