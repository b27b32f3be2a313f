import { Injectable } from '@nestjs/common';
import { offsetOf, PageRequest, sessionListMeta } from '@platform/http-common';
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
    const totalCount = await this.sessions.countVisible(tenantID, contactID, visibility);
    const offset = offsetOf(request, totalCount);
    const data = offset === undefined ? [] : await this.sessions.page(tenantID, contactID, visibility, { offset, limit: request.perPage });
    return { data, meta: sessionListMeta(request, totalCount) };
  }
}
