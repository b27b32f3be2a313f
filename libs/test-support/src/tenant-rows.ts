import { randomUUID } from 'node:crypto';

/** Anything that runs SQL: a DataSource, an EntityManager, a pg client. */
export interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<any>;
}

/**
 * A tenant row, as core-tenants writes one at sign-up: what a repository spec
 * needs for its rows' tenant_id to point at. Answers the tenant's id.
 */
export async function insertTenant(database: Queryable, name = `Tenant ${randomUUID().slice(0, 8)}`, options: { billingSubscriptionID?: string } = {}): Promise<string> {
  const rows: { id: string }[] = await database.query('INSERT INTO tenants (name, billing_subscription_id) VALUES ($1, $2) RETURNING id', [
    name,
    options.billingSubscriptionID ?? `sub_${randomUUID()}`,
  ]);
  return rows[0].id;
}
