import { Injectable } from '@nestjs/common';
import { PageRequest, pageOffsetOf, sessionListMeta } from '@platform/http-common';
import { ContactSessionsResponse } from './contact-session.dto';
import { ContactSessionsRepository } from './contact-sessions.repository';
import { SessionVisibility } from './session-visibility';

/**
 * Operation 11. A contact unknown on the tenant, or with no session the
 * viewer may list, is an empty page (SPEC.md lists no 404 here).
 */
@Injectable()
export class ListContactSessionsService {
  constructor(private readonly sessions: ContactSessionsRepository) {}

  async list(tenantID: string, contactID: string, visibility: SessionVisibility, request: PageRequest): Promise<ContactSessionsResponse> {
    const offset = pageOffsetOf(request);
    // A page number too large for an offset has no rows, only the count.
    if (offset === undefined) {
      return { data: [], meta: sessionListMeta(request, await this.sessions.countVisible(tenantID, contactID, visibility)) };
    }
    const { totalCount, data } = await this.sessions.pageWithCount(tenantID, contactID, visibility, { offset, limit: request.perPage });
    return { data, meta: sessionListMeta(request, totalCount) };
  }
}
