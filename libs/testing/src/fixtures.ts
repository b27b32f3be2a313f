import { encodeIdAndSecret, generateSecretToken, hashPassword, hashSecretToken } from '@platform/auth';
import type { MembershipRole, PluginConnectionKind } from '@platform/database';
import { insertTenant, Queryable } from '@platform/test-support';

export type { Queryable };

export interface OperatorFixture {
  operatorID: string;
  email: string;
  password: string;
}

export interface PluginFixture {
  pluginID: string;
  pluginToken: string;
  /** `Plugin base64(id:token)` */
  authorization: string;
}

export interface PluginConnectionFixture {
  pluginConnectionID: string;
  pluginConnectionToken: string;
  /** `PluginConnection base64(id:token)` */
  authorization: string;
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A DataSource, or an EntityManager inside a transaction. */

/**
 * Builds rows straight into the database, each with fresh ids and names, so
 * tests never share state. Used by tests and by the demo seed.
 */
export class FixtureBuilder {
  private passwordHashes = new Map<string, Promise<string>>();

  constructor(private readonly dataSource: Queryable) {}

  async tenant(name = `Tenant ${unique()}`, options: { billingSubscriptionID?: string } = {}): Promise<string> {
    return insertTenant(this.dataSource, name, { billingSubscriptionID: options.billingSubscriptionID ?? `sub_${unique()}` });
  }

  async operator(options: { email?: string; password?: string; firstname?: string } = {}): Promise<OperatorFixture> {
    const email = (options.email ?? `operator-${unique()}@acme-support.com.br`).toLowerCase();
    const password = options.password ?? 'correct horse battery staple';
    // One bcrypt hash per distinct password: hashing is deliberately slow.
    if (!this.passwordHashes.has(password)) this.passwordHashes.set(password, hashPassword(password));
    const rows: { id: string }[] = await this.dataSource.query(
      'INSERT INTO operators (email, firstname, password_hash) VALUES ($1, $2, $3) RETURNING id',
      [email, options.firstname ?? 'Ana', await this.passwordHashes.get(password)],
    );
    return { operatorID: rows[0].id, email, password };
  }

  async membership(tenantID: string, operatorID: string, role: MembershipRole): Promise<void> {
    await this.dataSource.query('INSERT INTO memberships (tenant_id, operator_id, role) VALUES ($1, $2, $3)', [tenantID, operatorID, role]);
  }

  /**
   * An invitation of an address to the tenant, as `POST .../operators/invitations`
   * records it (without its mail); answers its id and its token.
   */
  async invitation(
    tenantID: string,
    email: string,
    options: { invitedBy?: string; expiresAt?: Date; acceptedBy?: string } = {},
  ): Promise<{ invitationID: string; token: string }> {
    const token = generateSecretToken();
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO operator_invitations (tenant_id, email, token_hash, invited_by, expires_at, accepted_at, accepted_operator_id)
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::uuid IS NULL THEN NULL ELSE now() END, $6::uuid) RETURNING id`,
      [tenantID, email.toLowerCase(), hashSecretToken(token), options.invitedBy ?? null, options.expiresAt ?? new Date(Date.now() + 86_400_000), options.acceptedBy ?? null],
    );
    return { invitationID: rows[0].id, token };
  }

  async plugin(
    options: {
      name?: string;
      urn?: string;
      kind?: PluginConnectionKind;
      iconUrl?: string;
      billingPriceID?: string;
      vmImage?: string;
      /** The plugin's processing-trace endpoint (docs/protocols/processing-traces.openapi.yaml). */
      traceEndpointUrl?: string;
    } = {},
  ): Promise<PluginFixture> {
    const token = generateSecretToken();
    const suffix = unique();
    const kind = options.kind ?? 'plain';
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO plugins (name, urn, icon_url, connection_kind, token_hash, billing_price_id, vm_image, trace_endpoint_url)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [
        options.name ?? `Plugin ${suffix}`,
        options.urn ?? `urn:plugin:${suffix}`,
        options.iconUrl ?? null,
        kind,
        hashSecretToken(token),
        options.billingPriceID ?? (kind === 'paid' ? `price_${suffix}` : null),
        options.vmImage ?? (kind === 'hosted' ? `gateway-${suffix}` : null),
        options.traceEndpointUrl ?? null,
      ],
    );
    return { pluginID: rows[0].id, pluginToken: token, authorization: `Plugin ${encodeIdAndSecret(rows[0].id, token)}` };
  }

  /**
   * The platform-wide plugin with this URN (e.g. the helpdesk plugin), created
   * if missing; its token is replaced by a new one, returned like any fixture's.
   */
  async pluginWithUrn(urn: string, name: string): Promise<PluginFixture> {
    const token = generateSecretToken();
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO plugins (name, urn, token_hash) VALUES ($1, $2, $3)
       ON CONFLICT (urn) DO UPDATE SET token_hash = EXCLUDED.token_hash, updated_at = now()
       RETURNING id`,
      [name, urn, hashSecretToken(token)],
    );
    return { pluginID: rows[0].id, pluginToken: token, authorization: `Plugin ${encodeIdAndSecret(rows[0].id, token)}` };
  }

  async connection(
    tenantID: string,
    pluginID: string,
    options: { kind?: PluginConnectionKind; subscriptionItemID?: string; vmID?: string } = {},
  ): Promise<PluginConnectionFixture> {
    const token = generateSecretToken();
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO plugin_connections (tenant_id, plugin_id, kind, token_hash, subscription_item_id, vm_id)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [tenantID, pluginID, options.kind ?? 'plain', hashSecretToken(token), options.subscriptionItemID ?? null, options.vmID ?? null],
    );
    return {
      pluginConnectionID: rows[0].id,
      pluginConnectionToken: token,
      authorization: `PluginConnection ${encodeIdAndSecret(rows[0].id, token)}`,
    };
  }
}
