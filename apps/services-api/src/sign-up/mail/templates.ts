import type { RenderedMail } from '../../mail/mail.provider';
import { MailLanguage } from './mail-language';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

/** The same content as the text body: the lines, the code or token set apart, then the closing lines. */
function html(language: MailLanguage, before: string[], highlight: string, after: string[]): string {
  const paragraph = (text: string) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;
  const code = `<p style="margin:0 0 16px;font-size:24px;font-weight:bold;letter-spacing:3px;font-family:monospace">${escapeHtml(highlight)}</p>`;
  const body = [...before.map(paragraph), code, ...after.map(paragraph)].join('');
  return `<!doctype html><html lang="${language}"><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933">${body}</body></html>`;
}

export interface VerificationMailData {
  firstname: string;
  code: string;
  validMinutes: number;
}

const VERIFICATION: Record<MailLanguage, (data: VerificationMailData) => { subject: string; lines: string[]; after: string[] }> = {
  'pt-BR': ({ firstname, code, validMinutes }) => ({
    subject: `Seu código de verificação: ${code}`,
    lines: [`Olá, ${firstname}!`, 'Use este código para confirmar seu e-mail e concluir seu cadastro:'],
    after: [`O código vale por ${validMinutes} minutos. Se você não pediu este código, ignore esta mensagem.`],
  }),
  en: ({ firstname, code, validMinutes }) => ({
    subject: `Your verification code: ${code}`,
    lines: [`Hello, ${firstname}!`, 'Use this code to confirm your e-mail address and finish signing up:'],
    after: [`The code is valid for ${validMinutes} minutes. If you did not ask for it, ignore this message.`],
  }),
};

export function renderVerificationMail(language: MailLanguage, data: VerificationMailData): RenderedMail {
  const { subject, lines, after } = VERIFICATION[language](data);
  return {
    subject,
    text: [...lines, '', data.code, '', ...after].join('\n'),
    html: html(language, lines, data.code, after),
  };
}

export interface InvitationMailData {
  tenantName: string;
  inviterName: string | null;
  token: string;
  validDays: number;
}

const INVITATION: Record<MailLanguage, (data: InvitationMailData) => { subject: string; lines: string[]; after: string[] }> = {
  'pt-BR': ({ tenantName, inviterName, validDays }) => ({
    subject: `Convite para a equipe ${tenantName}`,
    lines: [
      `${inviterName ?? 'Um administrador'} convidou você para atender com a equipe ${tenantName}.`,
      'Para aceitar, crie sua conta informando este código de convite (se já tiver uma conta, entre nela e aceite o convite com ele):',
    ],
    after: [`O convite vale por ${validDays} dias e só pode ser usado uma vez. Se você não esperava este convite, ignore esta mensagem.`],
  }),
  en: ({ tenantName, inviterName, validDays }) => ({
    subject: `Invitation to join ${tenantName}`,
    lines: [`${inviterName ?? 'An administrator'} invited you to join the ${tenantName} team.`, 'To accept, sign up with this invitation token (if you already have an account, sign in and accept the invitation with it):'],
    after: [`The invitation is valid for ${validDays} days and can be used once. If you did not expect it, ignore this message.`],
  }),
};

export function renderInvitationMail(language: MailLanguage, data: InvitationMailData): RenderedMail {
  const { subject, lines, after } = INVITATION[language](data);
  return {
    subject,
    text: [...lines, '', data.token, '', ...after].join('\n'),
    html: html(language, lines, data.token, after),
  };
}
