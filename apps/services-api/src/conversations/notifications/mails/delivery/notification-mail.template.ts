import type { RenderedMail } from '../../../../mail/mail.provider';
import type { NotificationMailKind } from './notification-mails.repository';

/** Characters of a message quoted in a mail: enough to recognise it, never the conversation itself. */
export const EXCERPT_LENGTH = 80;
/** Events listed in one mail; the rest are counted. */
export const LISTED_EVENTS = 20;

export interface NotificationMailEvent {
  kind: NotificationMailKind;
  contactName: string;
  excerpt: string | null;
}

export interface NotificationMailData {
  firstname: string;
  tenantName: string;
  events: NotificationMailEvent[];
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

/** The start of a message on one line: whitespace runs folded, cut at EXCERPT_LENGTH code points with an ellipsis. */
export function excerptOf(content: string): string {
  const folded = content.replace(/\s+/g, ' ').trim();
  const points = [...folded];
  return points.length <= EXCERPT_LENGTH ? folded : `${points.slice(0, EXCERPT_LENGTH - 1).join('').trimEnd()}…`;
}

function lineOf(event: NotificationMailEvent): string {
  if (event.kind === 'assigned') return `O atendimento de ${event.contactName} foi atribuído a você.`;
  return event.excerpt === null ? `${event.contactName} escreveu.` : `${event.contactName} escreveu: “${excerptOf(event.excerpt)}”`;
}

/**
 * The mail of one batch, in pt-BR (operators have no stored language; the
 * platform's home language, as sign-up's default): the tenant, one line per
 * event (at most LISTED_EVENTS, the rest counted), a message's start only.
 * Every value is escaped in the HTML body.
 */
export function renderNotificationMail(data: NotificationMailData): RenderedMail {
  const count = data.events.length;
  const subject = count === 1 ? `${data.tenantName}: 1 novidade no atendimento` : `${data.tenantName}: ${count} novidades no atendimento`;
  const intro = `Olá, ${data.firstname}! Enquanto você estava ausente, na equipe ${data.tenantName}:`;
  const lines = data.events.slice(0, LISTED_EVENTS).map(lineOf);
  const more = count > LISTED_EVENTS ? [`E mais ${count - LISTED_EVENTS}.`] : [];
  const outro = 'Entre no atendimento para responder. Você pode escolher de quais avisos recebe e-mail nas suas preferências de notificação.';
  const text = [intro, '', ...lines.map((line) => `- ${line}`), ...more, '', outro].join('\n');
  const paragraph = (value: string) => `<p style="margin:0 0 16px">${escapeHtml(value)}</p>`;
  const list = `<ul style="margin:0 0 16px">${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`;
  const html = `<!doctype html><html lang="pt-BR"><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933">${paragraph(intro)}${list}${more.map(paragraph).join('')}${paragraph(outro)}</body></html>`;
  return { subject, text, html };
}
