import { generateSecretToken, hashSecretToken } from '@platform/auth';
import { DEMO_CRM_URN, DEMO_INTENT_URN } from '../../sandbox/demo-trace-providers';
import type { AreaSeeder } from './area-seeder';

/** The demo providers' endpoints when the environment names none (the sandbox's defaults in .env.example). */
const DEFAULT_URLS = { intent: 'http://127.0.0.1:4015/intent', crm: 'http://127.0.0.1:4016/crm' };

/**
 * Installs the sandbox's two demo trace providers on the demo tenant: the
 * plugins (platform-wide, by URN, like the helpdesk plugin) with their trace
 * endpoints, and a live connection of each. Both trace every inbound text
 * message, so the fixture's sessionID (whose first message is one) has
 * messages traced by both (docs/processing-traces.md, demo providers).
 */
export const seedProcessingTraces: AreaSeeder = async ({ manager, base }) => {
  const plugins: [urn: string, name: string, icon: string, url: string][] = [
    [DEMO_INTENT_URN, 'Classificador de intenção', 'https://cdn.atendimento.localhost/plugins/intent.svg', process.env.TRACE_SANDBOX_INTENT_URL ?? DEFAULT_URLS.intent],
    [DEMO_CRM_URN, 'Enriquecimento CRM', 'https://cdn.atendimento.localhost/plugins/crm.svg', process.env.TRACE_SANDBOX_CRM_URL ?? DEFAULT_URLS.crm],
  ];
  for (const [urn, name, icon, url] of plugins) {
    const [{ id }]: { id: string }[] = await manager.query(
      `INSERT INTO plugins (name, urn, icon_url, token_hash, trace_endpoint_url) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (urn) DO UPDATE SET name = EXCLUDED.name, icon_url = EXCLUDED.icon_url, trace_endpoint_url = EXCLUDED.trace_endpoint_url, updated_at = now()
       RETURNING id`,
      [name, urn, icon, hashSecretToken(generateSecretToken()), url],
    );
    await manager.query(`INSERT INTO plugin_connections (tenant_id, plugin_id, kind, token_hash) VALUES ($1, $2, 'plain', $3)`, [
      base.tenantID,
      id,
      hashSecretToken(generateSecretToken()),
    ]);
  }
  return {};
};
