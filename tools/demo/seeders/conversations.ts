import { ConversationFixtures } from '@platform/testing';
import type { AreaSeeder } from './area-seeder';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/**
 * Shortcuts of both scopes for the owner and the member, a contact with
 * several sessions (two of them unlisted, one of which the member cannot
 * see), messages, an AI summary, and unread notifications in several
 * categories for both operators (docs/quick-start.md, The demo fixture).
 */
export const seedConversations: AreaSeeder = async ({ manager, base }) => {
  const conversations = new ConversationFixtures(manager);
  const { tenantID } = base;
  const owner = base.operators.owner.operatorID;
  const member = base.operators.member.operatorID;

  const shortcuts: [scope: 'tenant-based' | 'user-based', operatorID: string, bang: string, preview: string][] = [
    ['tenant-based', owner, '/bomdia', 'Bom dia! Como posso ajudar?'],
    ['tenant-based', owner, '/Ação', 'Nossa promoção de 50% vale até domingo.'],
    ['tenant-based', member, '/boleto', 'Segue a segunda via do seu boleto.'],
    ['tenant-based', owner, '/horario', 'Atendemos de segunda a sexta, das 8h às 18h.'],
    ['user-based', owner, '/assinatura', 'Olivia, gerente de atendimento'],
    ['user-based', owner, '/Obrigada', 'Obrigada pelo contato!'],
    ['user-based', member, '/assinatura', 'Marcos, time de suporte'],
    ['user-based', member, '/ja_volto', 'Só um instante, já volto com a resposta.'],
  ];
  for (const [scope, operatorID, bang, preview] of shortcuts) await conversations.shortcut(tenantID, { scope, operatorID, bang, preview });

  // Ordinary inboxes: the fixture's plugin connection posts to them (npm run demo:chat plays that channel).
  const { pluginConnectionID } = base.pluginConnection;
  const whatsapp = await conversations.inbox(tenantID, { name: 'WhatsApp Vendas', channel: 'whatsapp', pluginConnectionID });
  const webchat = await conversations.inbox(tenantID, { name: 'Chat do site', channel: 'webchat', pluginConnectionID });
  const contactID = await conversations.contact(tenantID, 'Maria Souza');

  const first = await conversations.session(tenantID, { contactID, inboxID: whatsapp, operatorID: owner, createdAt: minutesAgo(3 * 24 * 60), closedAt: minutesAgo(3 * 24 * 60 - 30), active: false });
  await conversations.message(tenantID, first, { createdAt: minutesAgo(3 * 24 * 60), value: 'Oi, meu pedido não chegou.' });
  await conversations.message(tenantID, first, { createdAt: minutesAgo(3 * 24 * 60 - 25), direction: 'outbound', status: 3, value: 'Já reenviamos, chega amanhã!' });
  await conversations.summary(tenantID, first, { text: 'Pedido atrasado; reenvio confirmado para o dia seguinte.', sentiment: 'neutral', topics: ['entrega'] });

  const current = await conversations.session(tenantID, { contactID, inboxID: webchat, operatorID: member, createdAt: minutesAgo(40) });
  await conversations.message(tenantID, current, { createdAt: minutesAgo(40), value: 'Preciso da segunda via do boleto.' });
  await conversations.message(tenantID, current, { createdAt: minutesAgo(35), direction: 'outbound', key: 'file', status: 2, value: { name: 'boleto.pdf', size: 48213 } });

  // Not listed: the owner handled it alone, so the member does not see it; the owner and plugins do.
  const privateToOwner = await conversations.session(tenantID, { contactID, inboxID: whatsapp, operatorID: owner, listed: false, createdAt: minutesAgo(2 * 24 * 60) });
  await conversations.message(tenantID, privateToOwner, { createdAt: minutesAgo(2 * 24 * 60), value: 'Quero falar sobre uma cobrança indevida.' });
  // Not listed, but the member took part: both operators see it.
  const joined = await conversations.session(tenantID, { contactID, inboxID: whatsapp, operatorID: owner, participants: [member], listed: false, createdAt: minutesAgo(24 * 60) });
  await conversations.message(tenantID, joined, { createdAt: minutesAgo(24 * 60), value: 'Obrigada pela ajuda de ontem!' });
  // Queued, no message yet.
  await conversations.session(tenantID, { contactID, inboxID: webchat, createdAt: minutesAgo(5) });

  for (const [operatorID, category, inboxID, count] of [
    [owner, 'inbox', whatsapp, 3],
    [owner, 'inbox', webchat, 1],
    [owner, 'mention', undefined, 2],
    [owner, 'system', undefined, 1],
    [member, 'inbox', webchat, 2],
    [member, 'assignment', undefined, 1],
  ] as const) {
    for (let index = 0; index < count; index += 1) await conversations.notification(tenantID, { operatorID, category, inboxID, sessionID: current });
  }
  await conversations.notification(tenantID, { operatorID: owner, category: 'mention', read: true });

  return { contactID, sessionID: current, inboxID: whatsapp };
};
