import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { KeysetCursors } from '@platform/http-common';
import type { PresenceListResponse } from './presence.dto';
import { PRESENCE_PAGES } from './presence-cursor';
import { PresenceRepository } from './presence.repository';

export interface ListPresenceCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  limit: number;
  /** The previous page's `meta.nextCursor`; one this API did not make is 400 1002, before any access check. */
  cursor?: string;
}

/**
 * The tenant's members with their status in effect, by operator id, by
 * keyset; a member without a presence row is offline. One member more than
 * the page tells whether another follows.
 */
@Injectable()
export class ListPresenceUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly presence: PresenceRepository,
    private readonly cursors: KeysetCursors,
  ) {}

  async execute(command: ListPresenceCommand): Promise<PresenceListResponse> {
    const after = command.cursor === undefined ? undefined : this.cursors.read(PRESENCE_PAGES, command.cursor);
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const found = await this.presence.page(scope, after, command.limit + 1);
    const page = found.slice(0, command.limit);
    const nextCursor = found.length > command.limit ? this.cursors.issue(PRESENCE_PAGES, page[page.length - 1].operatorID) : null;
    return {
      data: page.map((member) => ({ operatorID: member.operatorID, status: member.status, changedAt: member.changedAt?.toISOString() ?? null })),
      meta: { limit: command.limit, nextCursor },
    };
  }
}
