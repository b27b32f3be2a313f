import { describe, expect, it } from 'vitest';
import { mailLanguageOf } from './mail-language';

describe('the language of sign-up mails', () => {
  it.each([
    [undefined, 'pt-BR'],
    ['', 'pt-BR'],
    ['de-DE, fr;q=0.8', 'pt-BR'],
    ['en', 'en'],
    ['en-US,en;q=0.9', 'en'],
    ['pt-BR,pt;q=0.9,en;q=0.8', 'pt-BR'],
    ['pt-PT', 'pt-BR'],
    ['de, en;q=0.5, pt;q=0.4', 'en'],
    ['en;q=0.4, pt;q=0.8', 'pt-BR'],
    ['en;q=0, pt;q=0.1', 'pt-BR'],
    ['pt;q=0, en;q=0.1', 'en'],
    ['en, pt', 'en'],
    ['EN-gb', 'en'],
  ])('%j gives %s', (header, language) => {
    expect(mailLanguageOf(header)).toBe(language);
  });
});
