import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService, TenantScope } from '@platform/auth';
import { ShortcutScope } from '@platform/database';
import { listMeta, offsetOf, PageRequest } from '@platform/http-common';
import { containsPattern } from './like-pattern';
import { fromNearerEnd, splitPage } from './page-split';
import { ShortcutListResponse } from './shortcut.dto';
import { ShortcutsRepository } from './shortcuts.repository';

export interface ListShortcutsCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  scope?: ShortcutScope;
  search?: string;
  page: PageRequest;
}

/**
 * Operation 7: the operator's personal shortcuts, then the tenant's
 * company-wide ones (docs/sessions-and-shortcuts.md). Without a search the
 * total comes from counters, so a request costs the same on any tenant size.
 */
@Injectable()
export class ListShortcutsUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly shortcuts: ShortcutsRepository,
  ) {}

  async execute(command: ListShortcutsCommand): Promise<ShortcutListResponse> {
    const scope = await this.access.require(command.principal, command.tenantID);
    const operatorID = command.principal.operatorID;
    const request = command.page;
    if (command.search !== undefined) return this.search(scope, operatorID, { scope: command.scope, search: command.search }, request);

    const counts = await this.shortcuts.countVisible(scope, operatorID);
    const personal = command.scope === 'tenant-based' ? 0 : counts.personal;
    const company = command.scope === 'user-based' ? 0 : counts.company;
    const totalCount = personal + company;
    const offset = offsetOf(request, totalCount);
    if (offset === undefined) return { data: [], meta: listMeta(request, totalCount, 0) };

    const slices = splitPage(offset, request.perPage, personal);
    const data = await this.shortcuts.page(scope, operatorID, fromNearerEnd(slices.first, personal), fromNearerEnd(slices.second, company));
    return { data, meta: listMeta(request, totalCount, data.length) };
  }

  private async search(
    scope: TenantScope,
    operatorID: string,
    filter: { scope?: ShortcutScope; search: string },
    request: PageRequest,
  ): Promise<ShortcutListResponse> {
    const offset = (BigInt(request.page) - 1n) * BigInt(request.perPage);
    const { totalCount, data } = await this.shortcuts.search(
      scope,
      operatorID,
      { scope: filter.scope, pattern: containsPattern(filter.search) },
      { offset: offset.toString(), limit: request.perPage },
    );
    return { data, meta: listMeta(request, totalCount, data.length) };
  }
}
