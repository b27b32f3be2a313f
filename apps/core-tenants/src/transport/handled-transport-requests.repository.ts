import { Injectable } from '@nestjs/common';
import { firstRow, run, sql, SqlRunner, TransactionalRepository } from '@platform/database';
import { currentTransportRequest, ReplayedTransportRequest } from '@platform/transport';

const RECORD = sql<{ requestID: string }, [requestID: string, pattern: string]>(
  `INSERT INTO handled_transport_requests (request_id, pattern) VALUES ($1, $2)
   ON CONFLICT (request_id) DO NOTHING RETURNING request_id AS "requestID"`,
);

const DELETE_OLDER_THAN = sql<never, [cutoff: Date, limit: number]>(
  `DELETE FROM handled_transport_requests WHERE request_id IN (
     SELECT request_id FROM handled_transport_requests WHERE handled_at < $1 LIMIT $2)`,
);

/**
 * The transport requests core-tenants has acted on (docs/transport.md,
 * Exactly once). The Redis claim picks the replica; this record, in
 * PostgreSQL, is what makes a request act once even for someone who can
 * delete the claim and publish the captured message again.
 */
@Injectable()
export class HandledTransportRequests extends TransactionalRepository {
  /**
   * Records the transport request being handled, in `runner`'s transaction
   * (the one of the handler's change, so both commit or neither). Throws
   * `ReplayedTransportRequest` when the id was recorded before: the change
   * is rolled back with it. A concurrent run of the same id waits on the
   * key until the first commits, then throws. Outside a transport request
   * (a job, the install reconciler) there is nothing to record.
   */
  async record(runner: SqlRunner): Promise<void> {
    const request = currentTransportRequest();
    if (!request) return;
    if (!(await firstRow(runner, RECORD, [request.id, request.pattern]))) throw new ReplayedTransportRequest(request);
  }

  /** Deletes at most `limit` records older than `cutoff`; answers how many. */
  async deleteOlderThan(cutoff: Date, limit: number): Promise<number> {
    return (await run(this.dataSource, DELETE_OLDER_THAN, [cutoff, limit])).count;
  }
}
