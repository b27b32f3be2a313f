import { Injectable } from '@nestjs/common';
import { listMeta, offsetOf, PageRequest } from '@platform/http-common';
import { ShortcutScope } from '@platform/database';
import { containsPattern } from './like-pattern';
import { fromNearerEnd, splitPage } from './page-split';
import { ShortcutListResponse } from './shortcut.dto';
import { ShortcutsRepository, ShortcutViewer } from './shortcuts.repository';

export interface ShortcutListFilter {
  scope?: ShortcutScope;
  search?: string;
}

/**
 * Operation 7: the viewer's personal shortcuts, then the tenant's
 * company-wide ones (docs/sessions-and-shortcuts.md). Without a search the
 * total comes from counters, so a request costs the same on any tenant size.
 */
@Injectable()
export class ListShortcutsService {
  constructor(private readonly shortcuts: ShortcutsRepository) {}

  async list(viewer: ShortcutViewer, filter: ShortcutListFilter, request: PageRequest): Promise<ShortcutListResponse> {
    if (filter.search !== undefined) return this.search(viewer, { scope: filter.scope, search: filter.search }, request);

    const counts = await this.shortcuts.countVisible(viewer);
    const personal = filter.scope === 'tenant-based' ? 0 : counts.personal;
    const company = filter.scope === 'user-based' ? 0 : counts.company;
    const totalCount = personal + company;
    const offset = offsetOf(request, totalCount);
    if (offset === undefined) return { data: [], meta: listMeta(request, totalCount, 0) };

    const slices = splitPage(offset, request.perPage, personal);
    const data = await this.shortcuts.page(viewer, fromNearerEnd(slices.first, personal), fromNearerEnd(slices.second, company));
    return { data, meta: listMeta(request, totalCount, data.length) };
  }

  private async search(viewer: ShortcutViewer, filter: { scope?: ShortcutScope; search: string }, request: PageRequest): Promise<ShortcutListResponse> {
    const offset = (BigInt(request.page) - 1n) * BigInt(request.perPage);
    const { totalCount, data } = await this.shortcuts.search(
      viewer,
      { scope: filter.scope, pattern: containsPattern(filter.search) },
      { offset: offset.toString(), limit: request.perPage },
    );
    return { data, meta: listMeta(request, totalCount, data.length) };
  }
}
