import { Injectable } from '@nestjs/common';
import { run, sql } from '@platform/database';
import { DataSource } from 'typeorm';

/** One lease to refresh: its socket and the seconds since the client's last activity on it. */
export interface LeaseRefresh {
  socketID: string;
  idleSeconds: number;
}

const OPEN = sql<never, [socketID: string, tenantID: string, operatorID: string]>(
  `INSERT INTO operator_socket_leases (socket_id, tenant_id, operator_id) VALUES ($1, $2, $3) ON CONFLICT (socket_id) DO NOTHING`,
);

/**
 * Seen now, with each socket's last activity. The activity is sent as an
 * age and stamped on the database's clock, like `seen_at`, so a gateway
 * whose clock drifts cannot make an operator look idle or active.
 */
const REFRESH = sql<never, [socketIDs: string[], idleSeconds: number[]]>(
  `UPDATE operator_socket_leases l
      SET seen_at = now(), last_activity_at = greatest(l.last_activity_at, now() - make_interval(secs => r.idle_seconds))
     FROM unnest($1::uuid[], $2::float8[]) AS r(socket_id, idle_seconds)
    WHERE l.socket_id = r.socket_id AND l.closed_at IS NULL`,
);

/** Closed: last seen now, which starts the offline grace if it was the operator's last socket. */
const CLOSE = sql<never, [socketID: string]>(`UPDATE operator_socket_leases SET seen_at = now(), closed_at = now() WHERE socket_id = $1 AND closed_at IS NULL`);

/** Leases nobody has seen for a day: far past any grace (at most an hour), of no use to the status rule. */
const PURGE = sql<never, [limit: number]>(
  `DELETE FROM operator_socket_leases WHERE socket_id IN (SELECT socket_id FROM operator_socket_leases WHERE seen_at < now() - interval '1 day' LIMIT $1)`,
);

/** operator_socket_leases, which this app alone writes (docs/presence.md, docs/data-access.md). */
@Injectable()
export class OperatorSocketLeasesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async open(socketID: string, tenantID: string, operatorID: string): Promise<void> {
    await run(this.dataSource, OPEN, [socketID, tenantID, operatorID]);
  }

  async refresh(leases: readonly LeaseRefresh[]): Promise<void> {
    if (leases.length === 0) return;
    await run(this.dataSource, REFRESH, [leases.map((lease) => lease.socketID), leases.map((lease) => lease.idleSeconds)]);
  }

  async close(socketID: string): Promise<void> {
    await run(this.dataSource, CLOSE, [socketID]);
  }

  /** Deletes up to `limit` stale leases; answers how many. */
  async purgeStale(limit: number): Promise<number> {
    return (await run(this.dataSource, PURGE, [limit])).count;
  }
}
