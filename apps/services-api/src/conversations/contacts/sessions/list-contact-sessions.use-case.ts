import { Injectable } from '@nestjs/common';
import { Principal, TenantAccessService } from '@platform/auth';
import { PageRequest, pageOffsetOf, sessionListMeta } from '@platform/http-common';
import { ContactSessionsResponse } from './contact-session.dto';
import { ContactSessionsRepository } from './contact-sessions.repository';
import { sessionVisibilityOf } from '../../sessions/session-visibility';

export interface ListContactSessionsCommand {
  principal: Principal;
  tenantID: string;
  /** Canonical (lower-cased by the request rule, IsCanonicalUuid). */
  contactID: string;
  page: PageRequest;
}

/**
 * Operation 11. A contact unknown on the tenant, or with no session the
 * viewer may list, is an empty page (the operation lists no 404).
 */
@Injectable()
export class ListContactSessionsUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly sessions: ContactSessionsRepository,
  ) {}

  async execute(command: ListContactSessionsCommand): Promise<ContactSessionsResponse> {
    const scope = await this.access.require(command.principal, command.tenantID);
    const { contactID } = command;
    const visibility = sessionVisibilityOf(command.principal);
    const request = command.page;
    const offset = pageOffsetOf(request);
    // A page number too large for an offset has no rows, only the count.
    if (offset === undefined) {
      return { data: [], meta: sessionListMeta(request, await this.sessions.countVisible(scope, contactID, visibility)) };
    }
    const { totalCount, data } = await this.sessions.pageWithCount(scope, contactID, visibility, { offset, limit: request.perPage });
    return { data, meta: sessionListMeta(request, totalCount) };
  }
}
