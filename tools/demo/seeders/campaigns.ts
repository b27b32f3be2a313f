import { CampaignFixtures } from '@platform/testing';
import type { AreaSeeder } from './area-seeder';

/**
 * Campaign area: a connected WhatsApp channel, campaign models in several
 * statuses (as the provider left them) and campaigns in several statuses.
 */
export const seedCampaigns: AreaSeeder = async ({ manager, base, run }) => {
  const campaigns = new CampaignFixtures(manager);
  const channel = await campaigns.messagingChannel(base.tenantID);
  const createdBy = base.operators.owner.operatorID;
  const rows: { id: string }[] = await manager.query(
    `INSERT INTO campaign_models (tenant_id, channel, channel_id, name, type, description, language, status, external_id,
                                  gateway_meta, meta, tags, slots, model_variables, processing_at, evaluating_at, approved_at,
                                  refused_at, error_code, error_message, created_by, updated_by)
     SELECT $1, 'whatsapp', $2, model.name, model.type, model.description, 'pt_BR', model.status, model.external_id,
            '{"language":"pt_BR"}', '{}', model.tags, model.slots::jsonb, model.variables::jsonb,
            now() - interval '3 days', now() - interval '3 days',
            CASE WHEN model.status = 'approved' THEN now() - interval '2 days' END,
            CASE WHEN model.status = 'refused' THEN now() - interval '2 days' END,
            CASE WHEN model.status = 'refused' THEN 2388299 END,
            CASE WHEN model.status = 'refused' THEN 'Variables cannot be at the start or end of the template.' END,
            $3, $3
       FROM (VALUES
         ('pedido_enviado', 'UTILITY', 'Avisa que o pedido saiu para entrega', 'approved', $4 || '1', ARRAY['pedidos'],
          '{"header":{"type":"text","text":"Pedido {{order_id}}","variables":[{"key":"order_id","fallback":""}]},"body":{"text":"Olá {{customer_name}}, seu pedido {{order_id}} saiu para entrega.","variables":[{"key":"customer_name","fallback":"cliente"},{"key":"order_id","fallback":""}]},"footer":{"text":"Acme Atendimento"},"buttons":[{"type":"URL","text":"Rastrear","url":"https://acme-atendimento.com.br/r/{{1}}","example":"BR123"}]}',
          '[{"key":"order_id","fallback":"","required":true,"type":"text"},{"key":"customer_name","fallback":"cliente","required":false,"type":"text"}]'),
         ('black_friday', 'MARKETING', 'Campanha de Black Friday', 'evaluating', $4 || '2', ARRAY['promo', 'vip'],
          '{"body":{"text":"{{customer_name}}, a Black Friday chegou: 30% em tudo!","variables":[{"key":"customer_name","fallback":"cliente"}]},"buttons":[{"type":"QUICK_REPLY","text":"Quero ver"}]}',
          '[{"key":"customer_name","fallback":"cliente","required":false,"type":"text"}]'),
         ('codigo_de_acesso', 'AUTHENTICATION', 'Código de verificação', 'refused', NULL, ARRAY[]::text[],
          '{"body":{"text":"{{code}} é o seu código."},"buttons":[{"type":"OTP","otpType":"COPY_CODE","text":"Copiar código"}]}',
          '[]')
       ) AS model (name, type, description, status, external_id, tags, slots, variables)
     RETURNING id`,
    [base.tenantID, channel.channelID, createdBy, `77${run.replace(/[^0-9]/g, '').padEnd(6, '0')}`],
  );
  const [approved, evaluating] = rows;
  const plan: [Parameters<CampaignFixtures['campaign']>[1], number, string | null][] = [
    ['draft', 2, approved.id],
    ['scheduled', 1, evaluating.id],
    ['running', 1, approved.id],
    ['completed', 3, approved.id],
    ['canceled', 1, null],
  ];
  for (const [status, count, modelID] of plan) {
    for (let index = 0; index < count; index += 1) await campaigns.campaign(base.tenantID, status, modelID);
  }
  return { campaignModelID: approved.id };
};
