/** The languages sign-up mails are written in. */
export const MAIL_LANGUAGES = ['pt-BR', 'en'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

/** Used when the request states no language we write in. */
export const DEFAULT_MAIL_LANGUAGE: MailLanguage = 'pt-BR';

/**
 * The language of a sign-up mail, from the request's Accept-Language header
 * (docs/sign-up.md): the entry with the highest weight whose primary subtag
 * is `pt` (any region: pt-BR) or `en` (any region: English) wins, the first
 * listed on a tie; `q=0` entries and other languages are ignored. Without
 * such an entry: pt-BR, the platform's home language.
 */
export function mailLanguageOf(acceptLanguage: string | undefined): MailLanguage {
  let best: { language: MailLanguage; weight: number } | undefined;
  for (const entry of (acceptLanguage ?? '').split(',')) {
    const [tag, ...parameters] = entry.trim().split(';');
    const primary = tag.trim().toLowerCase().split('-')[0];
    const language: MailLanguage | undefined = primary === 'pt' ? 'pt-BR' : primary === 'en' ? 'en' : undefined;
    if (!language) continue;
    const q = parameters.map((parameter) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(parameter)?.[1]).find(Boolean);
    const weight = q === undefined ? 1 : Number(q);
    if (!Number.isFinite(weight) || weight <= 0) continue;
    if (!best || weight > best.weight) best = { language, weight };
  }
  return best?.language ?? DEFAULT_MAIL_LANGUAGE;
}
