import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { firstRow, rows, run, sql, SqlRunner, TransactionalRepository } from '@platform/database';

export interface StoredInbox {
  inboxID: string;
  name: string;
  channel: string;
  pluginConnectionID: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = `id AS "inboxID", name, channel, plugin_connection_id AS "pluginConnectionID", created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * Whether the tenant has this live plugin connection (a read of core-tenants'
 * table, listed in docs/data-access.md#table-ownership). Locked in share mode
 * until the create commits, so the connection's removal (op 1) waits for it.
 */
const LIVE_CONNECTION = sql<{ id: string }, [tenantID: string, pluginConnectionID: string]>(
  `SELECT id FROM plugin_connections WHERE tenant_id = $1 AND id = $2 AND status = 'live' FOR SHARE`,
);

const INSERT = sql<StoredInbox, [tenantID: string, name: string, channel: string, pluginConnectionID: string]>(
  `INSERT INTO inboxes (tenant_id, name, channel, plugin_connection_id) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
);

const LIVE_BY_ID = sql<StoredInbox, [tenantID: string, inboxID: string]>(`SELECT ${COLUMNS} FROM inboxes WHERE tenant_id = $1 AND id = $2 AND removed_at IS NULL`);

/** The live inbox, its row share-locked: a removal waits for the inbound post that reads it (and the post sees a committed removal). */
const SHARE_LIVE = sql<StoredInbox, [tenantID: string, inboxID: string]>(
  `SELECT ${COLUMNS} FROM inboxes WHERE tenant_id = $1 AND id = $2 AND removed_at IS NULL FOR SHARE`,
);

/** Locks the inbox row: a removal and a new session's insert (its foreign key locks the row) exclude each other. */
const LOCK_LIVE = sql<StoredInbox, [tenantID: string, inboxID: string]>(
  `SELECT ${COLUMNS} FROM inboxes WHERE tenant_id = $1 AND id = $2 AND removed_at IS NULL FOR UPDATE`,
);

const RENAME = sql<StoredInbox, [tenantID: string, inboxID: string, name: string]>(
  `UPDATE inboxes SET name = $3, updated_at = clock_timestamp() WHERE tenant_id = $1 AND id = $2 AND removed_at IS NULL RETURNING ${COLUMNS}`,
);

const HAS_OPEN_SESSIONS = sql<{ open: boolean }, [tenantID: string, inboxID: string]>(
  `SELECT EXISTS (SELECT 1 FROM sessions WHERE tenant_id = $1 AND inbox_id = $2 AND closed_at IS NULL) AS open`,
);

const REMOVE = sql<never, [tenantID: string, inboxID: string]>(
  `UPDATE inboxes SET removed_at = clock_timestamp(), updated_at = clock_timestamp() WHERE tenant_id = $1 AND id = $2`,
);

/** Oldest first, then id: total and stable between pages. `$2` null lists every live inbox, else a connection's. */
const PAGE = sql<StoredInbox & { total_count: string }, [tenantID: string, pluginConnectionID: string | null, limit: number, offset: number]>(
  `SELECT ${COLUMNS}, count(*) OVER () AS total_count FROM inboxes
    WHERE tenant_id = $1 AND removed_at IS NULL AND ($2::uuid IS NULL OR plugin_connection_id = $2)
    ORDER BY created_at, id LIMIT $3 OFFSET $4`,
);

const COUNT = sql<{ count: string }, [tenantID: string, pluginConnectionID: string | null]>(
  `SELECT count(*) AS count FROM inboxes WHERE tenant_id = $1 AND removed_at IS NULL AND ($2::uuid IS NULL OR plugin_connection_id = $2)`,
);

/** Inboxes of a tenant, each bound to the channel plugin connection that posts to it. */
@Injectable()
export class InboxesRepository extends TransactionalRepository {
  async hasLiveConnection(runner: SqlRunner, scope: TenantScope, pluginConnectionID: string): Promise<boolean> {
    return (await firstRow(runner, LIVE_CONNECTION, [scope.tenantID, pluginConnectionID])) !== undefined;
  }

  async insert(runner: SqlRunner, scope: TenantScope, inbox: { name: string; channel: string; pluginConnectionID: string }): Promise<StoredInbox> {
    return (await firstRow(runner, INSERT, [scope.tenantID, inbox.name, inbox.channel, inbox.pluginConnectionID]))!;
  }

  async live(scope: TenantScope, inboxID: string, runner: SqlRunner = this.dataSource): Promise<StoredInbox | undefined> {
    return firstRow(runner, LIVE_BY_ID, [scope.tenantID, inboxID]);
  }

  async lockLive(runner: SqlRunner, scope: TenantScope, inboxID: string): Promise<StoredInbox | undefined> {
    return firstRow(runner, LOCK_LIVE, [scope.tenantID, inboxID]);
  }

  async shareLive(runner: SqlRunner, scope: TenantScope, inboxID: string): Promise<StoredInbox | undefined> {
    return firstRow(runner, SHARE_LIVE, [scope.tenantID, inboxID]);
  }

  async rename(runner: SqlRunner, scope: TenantScope, inboxID: string, name: string): Promise<StoredInbox | undefined> {
    return firstRow(runner, RENAME, [scope.tenantID, inboxID, name]);
  }

  async hasOpenSessions(runner: SqlRunner, scope: TenantScope, inboxID: string): Promise<boolean> {
    return (await firstRow(runner, HAS_OPEN_SESSIONS, [scope.tenantID, inboxID]))!.open;
  }

  async remove(runner: SqlRunner, scope: TenantScope, inboxID: string): Promise<void> {
    await run(runner, REMOVE, [scope.tenantID, inboxID]);
  }

  /** A page of live inboxes (a connection's own when `pluginConnectionID` is given) and their count. */
  async page(scope: TenantScope, pluginConnectionID: string | null, page: { offset: number; limit: number }): Promise<{ totalCount: number; data: StoredInbox[] }> {
    const found = await rows(this.dataSource, PAGE, [scope.tenantID, pluginConnectionID, page.limit, page.offset]);
    if (found.length === 0) {
      const counted = await firstRow(this.dataSource, COUNT, [scope.tenantID, pluginConnectionID]);
      return { totalCount: Number(counted!.count), data: [] };
    }
    return { totalCount: Number(found[0].total_count), data: found.map(({ total_count: _, ...inbox }) => inbox) };
  }
}
