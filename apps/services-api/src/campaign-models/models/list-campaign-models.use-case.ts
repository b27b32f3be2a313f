import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { listMeta, PageRequest } from '@platform/http-common';
import { parseCampaignModelFilters } from './campaign-model-filters';
import type { CampaignModelListResponse, SortField } from './campaign-model.dto';
import { CampaignModelsListRepository } from './campaign-models-list.repository';

export interface ListCampaignModelsCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  page: PageRequest;
  sortField?: SortField;
  sortDirection?: '-1' | '1';
  search?: string;
  /** The `filters` query parameter as sent (the pipe checked that it parses). */
  filters?: string;
}

/** Operation 4: one page of the tenant's campaign models, newest first unless asked otherwise. */
@Injectable()
export class ListCampaignModelsUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly lists: CampaignModelsListRepository,
  ) {}

  async execute(command: ListCampaignModelsCommand): Promise<CampaignModelListResponse> {
    const scope = await this.access.require(command.principal, command.tenantID);
    const { totalCount, data } = await this.lists.list(scope, {
      ...command.page,
      sortField: command.sortField ?? 'createdAt',
      descending: (command.sortDirection ?? '-1') === '-1',
      search: command.search,
      filters: command.filters === undefined ? undefined : parseCampaignModelFilters(command.filters),
    });
    return { data, meta: listMeta(command.page, totalCount, data.length) };
  }
}
