import { randomUUID } from 'node:crypto';
import type { AreaSeeder } from './index';

/**
 * A help center for the demo tenant, with the helpdesk plugin connected and
 * one pending custom domain (the fixture's `helpdeskDomain`).
 *
 * The helpdesk plugin is the platform-wide record with the configured URN
 * (HELPDESK_PLUGIN_URN): found, or created once. Its provider id is a fresh
 * id the provider does not know yet; the first refresh finds it missing there
 * and registers the hostname (docs/helpdesk-domains.md), so the demo works
 * against the provider sandbox and any real zone alike.
 */
export const seedHelpdesk: AreaSeeder = async ({ manager, fixtures, run, base }) => {
  const urn = process.env.HELPDESK_PLUGIN_URN ?? 'urn:plugin:helpdesk';
  const existing: { id: string }[] = await manager.query('SELECT id FROM plugins WHERE urn = $1', [urn]);
  const pluginID = existing[0]?.id ?? (await fixtures.plugin({ name: 'Central de Ajuda', urn })).pluginID;
  await fixtures.connection(base.tenantID, pluginID);

  const [{ id: helpCenterID }]: { id: string }[] = await manager.query('INSERT INTO help_centers (tenant_id) VALUES ($1) RETURNING id', [base.tenantID]);
  const helpdeskDomain = `ajuda-${run}.acme-atendimento.com.br`;
  await manager.query(
    `INSERT INTO helpdesk_domains (tenant_id, help_center_id, hostname, provider_id, status, last_checked_at)
     VALUES ($1, $2, $3, $4, 'pending', now())`,
    [base.tenantID, helpCenterID, helpdeskDomain, randomUUID()],
  );
  return { helpdeskDomain };
};
