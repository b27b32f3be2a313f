import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { rows, sql } from '@platform/database';
import { DataSource } from 'typeorm';
import { visibleSql } from '../sessions/session-visibility';
import { ExactTimeAndID, exactTimeSql } from '../../exact-time-position';
import type { ContactDto } from './contact.dto';

/** Who lists a tenant's contacts: an operator (every contact), or a plugin connection (those it has sessions with). */
export type ContactViewer = { kind: 'operator' } | { kind: 'pluginConnection'; pluginConnectionID: string };

interface ContactRow {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
  created_exact: string;
  handles: { channel: string; handle: string }[];
}

type Params = [tenantID: string, handle: string | null, afterAt: string | null, afterID: string | null, limit: number, ...connection: string[]];

/**
 * A page of the tenant's contacts, newest first, after a keyset position
 * (exclusive): a walk of contacts_tenant_newest_idx from the cursor, or,
 * with `$2`, the contacts of that handle on any channel
 * (contact_handles_tenant_handle_idx). A plugin connection's page keeps the
 * contacts with a session it may see (operation 11's rule: one on its own
 * inboxes, `$6`). Then each contact's handles.
 */
function pageText(kind: ContactViewer['kind']): string {
  const connectionFilter =
    kind === 'pluginConnection'
      ? `AND EXISTS (SELECT 1 FROM sessions s WHERE s.tenant_id = $1 AND s.contact_id = c.id AND ${visibleSql('pluginConnection', 's', '$6')})`
      : '';
  return `WITH page AS (
         SELECT c.id, c.name, c.created_at, c.updated_at FROM contacts c
          WHERE c.tenant_id = $1
            AND ($2::text IS NULL OR c.id IN (SELECT h.contact_id FROM contact_handles h WHERE h.tenant_id = $1 AND h.handle = $2::text))
            AND ($3::timestamptz IS NULL OR (c.created_at, c.id) < ($3::timestamptz, $4::uuid))
            ${connectionFilter}
          ORDER BY c.created_at DESC, c.id DESC
          LIMIT $5
       )
       SELECT page.id, page.name, page.created_at, page.updated_at, ${exactTimeSql('page.created_at')} AS created_exact,
              coalesce((SELECT json_agg(json_build_object('channel', h.channel, 'handle', h.handle) ORDER BY h.channel, h.handle)
                          FROM contact_handles h WHERE h.contact_id = page.id), '[]') AS handles
         FROM page
        ORDER BY page.created_at DESC, page.id DESC`;
}

const PAGE = {
  operator: sql<ContactRow, Params>(pageText('operator')),
  pluginConnection: sql<ContactRow, Params>(pageText('pluginConnection')),
};

/** A contact and its place in the list. */
export interface ListedContact {
  contact: ContactDto;
  position: ExactTimeAndID;
}

/** A tenant's contacts: keyset pages, newest first, and the lookup by handle. */
@Injectable()
export class ContactsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(scope: TenantScope, viewer: ContactViewer, handle: string | undefined, after: ExactTimeAndID | undefined, limit: number): Promise<ListedContact[]> {
    const connection = viewer.kind === 'pluginConnection' ? [viewer.pluginConnectionID] : [];
    const found = await rows(this.dataSource, PAGE[viewer.kind], [scope.tenantID, handle ?? null, after?.at ?? null, after?.id ?? null, limit, ...connection]);
    return found.map((row) => ({
      contact: { contactID: row.id, name: row.name, handles: row.handles, createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString() },
      position: { at: row.created_exact, id: row.id },
    }));
  }
}
