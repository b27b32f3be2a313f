import { CoreTenantsConfig, issueOperatorToken } from '@apps/core-tenants';
import { BillingStub, FixtureBuilder } from '@platform/testing';
import { DataSource } from 'typeorm';
import { seedBenchTenant } from '../bench-tenant';
import { DOMAIN, RATE, ROWS, SIGN_IN_OPERATORS, SOAK_SECONDS, UNLIMITED_SECONDS } from './settings';

export interface SeededData {
  tenantID: string;
  ownerToken: string;
  removerToken: string;
  campaignModelID: string;
  channelID: string;
  contactID: string;
  connectionPaths: string[];
  pluginAuthorization: string;
  signInOperators: { email: string; password: string }[];
}

/**
 * The bench tenant (bench-tenant.ts), operators to sign in, and enough
 * connections for operation 1 over both runs: half plain, half paid (each
 * with a subscription item at the billing stub), each in a tenant of its own
 * owned by another operator.
 */
export async function seed(dataSource: DataSource, billing: BillingStub, coreConfig: CoreTenantsConfig): Promise<SeededData> {
  const { tenantID, owner, campaignModelID, channelID, contactID, helpdesk } = await seedBenchTenant(dataSource, ROWS, { summaries: false });
  const fixtures = new FixtureBuilder(dataSource);

  const signInOperators: { email: string; password: string }[] = [];
  for (let index = 0; index < SIGN_IN_OPERATORS; index += 1) signInOperators.push(await fixtures.operator({ email: `sign-in-${index}@${DOMAIN}`, password: 'correct horse battery staple' }));

  // Operation 1 at its rate over both runs, and a margin.
  const connectionCount = Math.ceil(3 * RATE * (SOAK_SECONDS + UNLIMITED_SECONDS) * 1.1) + 20;
  const remover = await fixtures.operator();
  const plain = await fixtures.plugin();
  const paid = await fixtures.plugin({ kind: 'paid' });
  const items = Array.from({ length: connectionCount }, (_, index) => (index % 2 ? `si_bench_${index}` : null));
  for (const item of items) if (item) billing.addItem(item);
  const connections: { id: string; tenant_id: string }[] = await dataSource.query(
    `WITH made AS (
       INSERT INTO tenants (name, billing_subscription_id) SELECT 'Bench connection tenant ' || g, 'sub_bench' FROM generate_series(1, $1::int) g RETURNING id
     ), numbered AS (
       SELECT id, row_number() OVER () - 1 AS n FROM made
     ), owned AS (
       INSERT INTO memberships (tenant_id, operator_id, role) SELECT id, $2, 'owner' FROM made
     )
     INSERT INTO plugin_connections (tenant_id, plugin_id, kind, token_hash, subscription_item_id)
     SELECT id, CASE WHEN n % 2 = 1 THEN $4::uuid ELSE $3::uuid END, CASE WHEN n % 2 = 1 THEN 'paid' ELSE 'plain' END,
            'not-a-token-hash', CASE WHEN n % 2 = 1 THEN 'si_bench_' || n END
       FROM numbered RETURNING id, tenant_id`,
    [connectionCount, remover.operatorID, plain.pluginID, paid.pluginID],
  );
  const { token } = await issueOperatorToken(coreConfig, owner.operatorID);
  const { token: removerToken } = await issueOperatorToken(coreConfig, remover.operatorID);
  return {
    tenantID,
    ownerToken: token,
    removerToken,
    campaignModelID,
    channelID,
    contactID,
    connectionPaths: connections.map((connection) => `/v1/tenants/${connection.tenant_id}/plugins/connections/${connection.id}`),
    pluginAuthorization: helpdesk.authorization,
    signInOperators,
  };
}
