import { randomUUID } from 'node:crypto';
import type { AreaSeeder } from './area-seeder';

/**
 * A help center for the demo tenant with one pending custom domain (the
 * fixture's `helpdeskDomain`). The base fixture's plugin is the helpdesk
 * plugin and its connection is on the demo tenant, so the tenant is connected.
 *
 * The domain's provider id is a fresh id the provider does not know yet; the
 * first refresh finds it missing there and registers the hostname
 * (docs/helpdesk-domains.md), so the demo works against the provider sandbox
 * and any real zone alike.
 */
export const seedHelpdesk: AreaSeeder = async ({ manager, run, base }) => {

  const [{ id: helpCenterID }]: { id: string }[] = await manager.query('INSERT INTO help_centers (tenant_id) VALUES ($1) RETURNING id', [base.tenantID]);
  const helpdeskDomain = `ajuda-${run}.acme-atendimento.com.br`;
  await manager.query(
    `INSERT INTO helpdesk_domains (tenant_id, help_center_id, hostname, provider_id, status, last_checked_at)
     VALUES ($1, $2, $3, $4, 'pending', now())`,
    [base.tenantID, helpCenterID, helpdeskDomain, randomUUID()],
  );
  return { helpdeskDomain };
};
