import { randomUUID } from 'node:crypto';
import { CoreTenantsConfig, issueOperatorToken } from '@apps/core-tenants';
import { FixtureBuilder } from '@platform/testing';
import { DataSource } from 'typeorm';
import { seedBenchTenant } from '../bench-tenant';
import { CAPTURE_AFTER, DELETE_WARM_UP, DELETES, REQUESTS, ROWS, THROTTLED_BATCH, WARM_UP } from './settings';

export interface SeededData {
  tenantID: string;
  ownerToken: string;
  /** Owner of the tenants of the plain connections operation 1 deletes. */
  removerToken: string;
  campaignModelID: string;
  contactID: string;
  /** Path of each plain connection's DELETE, under its own tenant. */
  plainConnectionPaths: string[];
  pluginAuthorization: string;
  /** Helpdesk domains of the tenant, enough for every throttled batch. */
  hostnames: string[];
  /** Plain connections whose DELETEs capture operation 1's SQL (CAPTURE_AFTER + 1), apart from the load's. */
  capturePaths: string[];
  /** A helpdesk domain whose refreshes capture operation 12's SQL. */
  captureHostname: string;
}

/**
 * The bench tenant (bench-tenant.ts, its sessions with their summaries), its
 * helpdesk domains (enough for every throttled batch, and one for the SQL
 * capture), and DELETES + DELETE_WARM_UP plain connections (one per tenant,
 * each tenant owned by another operator) plus those the capture deletes.
 */
export async function seed(dataSource: DataSource, coreConfig: CoreTenantsConfig): Promise<SeededData> {
  const { tenantID, owner, campaignModelID, contactID, helpdesk, helpCenterID } = await seedBenchTenant(dataSource, ROWS, { summaries: true });
  const fixtures = new FixtureBuilder(dataSource);
  const hostnames = Array.from({ length: 3 + Math.ceil((REQUESTS + WARM_UP) / THROTTLED_BATCH) }, (_, index) => `ajuda-${index}.bench-atendimento.com.br`);
  for (const hostname of hostnames) {
    await dataSource.query(`INSERT INTO helpdesk_domains (tenant_id, help_center_id, hostname, provider_id) VALUES ($1, $2, $3, $4)`, [tenantID, helpCenterID, hostname, randomUUID()]);
  }

  // Operation 1 deletes one connection per request; a (tenant, plugin) pair has one live connection.
  // Another operator owns those tenants, so the owner's list (operation 15) keeps its five.
  const remover = await fixtures.operator();
  const plain = await fixtures.plugin();
  const connections: { id: string; tenant_id: string }[] = await dataSource.query(
    `WITH made AS (
       INSERT INTO tenants (name) SELECT 'Bench connection tenant ' || g FROM generate_series(1, $1::int) g RETURNING id
     ), owned AS (
       INSERT INTO memberships (tenant_id, operator_id, role) SELECT id, $2, 'owner' FROM made
     )
     INSERT INTO plugin_connections (tenant_id, plugin_id, kind, token_hash)
     SELECT id, $3, 'plain', 'not-a-token-hash' FROM made RETURNING id, tenant_id`,
    [DELETES + DELETE_WARM_UP + CAPTURE_AFTER + 1, remover.operatorID, plain.pluginID],
  );
  const paths = connections.map((connection) => `/v1/tenants/${connection.tenant_id}/plugins/connections/${connection.id}`);
  const { token } = await issueOperatorToken(coreConfig, owner.operatorID);
  const { token: removerToken } = await issueOperatorToken(coreConfig, remover.operatorID);
  return {
    tenantID,
    ownerToken: token,
    removerToken,
    campaignModelID,
    contactID,
    plainConnectionPaths: paths.slice(0, DELETES + DELETE_WARM_UP),
    pluginAuthorization: helpdesk.authorization,
    hostnames: hostnames.slice(0, -1),
    capturePaths: paths.slice(DELETES + DELETE_WARM_UP),
    captureHostname: hostnames[hostnames.length - 1],
  };
}
