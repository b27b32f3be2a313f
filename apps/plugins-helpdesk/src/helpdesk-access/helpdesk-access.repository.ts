import { Injectable } from '@nestjs/common';
import { firstRow, sql, Sql } from '@platform/database';
import { DataSource } from 'typeorm';

/** Whether the tenant exists and has a live connection of the helpdesk plugin. */
export interface Standing {
  exists: boolean;
  connected: boolean;
}

/** `$1` the tenant, `$2` the helpdesk plugin (null while no plugin has its URN). */
const STANDING_TEXT = `SELECT EXISTS (SELECT 1 FROM tenants WHERE id = $1) AS exists,
              EXISTS (SELECT 1 FROM plugin_connections
                       WHERE tenant_id = $1 AND plugin_id = $2 AND status = 'live') AS connected`;

const STANDING = sql<Standing, [tenantID: string, pluginID: string | null]>(STANDING_TEXT);

const PLUGIN_BY_URN = sql<{ id: string }, [urn: string]>('SELECT id FROM plugins WHERE urn = $1');

/** The standing and, when the read found it, its row (its columns are null otherwise). */
export type StandingAndRow<Row> = Standing & (({ found: true } & Row) | { found: null });

/** The parameters of a read with the standing: the tenant, the plugin, then the read's own. */
type StandingParams<Params extends readonly unknown[]> = [tenantID: string, pluginID: string | null, ...Params];

/** A row read in the statement of the standing (HelpdeskAccess.requireAndRead), with its parameters. */
export interface RowRead<Row, Params extends readonly unknown[]> {
  statement: Sql<StandingAndRow<Row>, StandingParams<Params>>;
  parameters: Params;
}

/**
 * Declares a row read to run with the standing: `select` is a SELECT where
 * `$1` is the tenant id and its own parameters are numbered from `$3`; its
 * first row is read in the same statement, so in the same snapshot and the
 * same round trip as the standing. Declare it once, as a module constant.
 */
export function readWithStanding<Row, Params extends readonly unknown[]>(select: string): Sql<StandingAndRow<Row>, StandingParams<Params>> {
  return sql(
    `SELECT standing.exists, standing.connected, read.*
         FROM (${STANDING_TEXT}) standing
         LEFT JOIN LATERAL (SELECT true AS found, wanted.* FROM (${select}) wanted LIMIT 1) read ON true`,
  );
}

/**
 * What the helpdesk access rule reads: the helpdesk plugin's id, and a
 * tenant's standing. Read before access is granted, as part of the check, so
 * these take a bare tenant id; the row of a read with the standing reaches
 * the caller only once access is granted (HelpdeskAccess).
 */
@Injectable()
export class HelpdeskAccessRepository {
  constructor(private readonly dataSource: DataSource) {}

  async pluginIDByUrn(urn: string): Promise<string | undefined> {
    return (await firstRow(this.dataSource, PLUGIN_BY_URN, [urn]))?.id;
  }

  /** One indexed query, on every request: removing the helpdesk connection is felt at once, on every replica. */
  async standing(tenantID: string, pluginID: string | undefined): Promise<Standing> {
    const found = await firstRow(this.dataSource, STANDING, [tenantID, pluginID ?? null]);
    return { exists: found?.exists ?? false, connected: found?.connected ?? false };
  }

  /** The standing and the read's first row, in one statement. */
  async standingAndRow<Row, Params extends readonly unknown[]>(
    tenantID: string,
    pluginID: string | undefined,
    read: RowRead<Row, Params>,
  ): Promise<Standing & { row: Row | undefined }> {
    const parameters: StandingParams<Params> = [tenantID, pluginID ?? null, ...read.parameters];
    const found = await firstRow(this.dataSource, read.statement, parameters);
    if (!found) return { exists: false, connected: false, row: undefined };
    const { exists, connected, ...rest } = found;
    if (rest.found === null) return { exists, connected, row: undefined };
    const { found: _found, ...row } = rest;
    return { exists, connected, row: row as Row };
  }
}
