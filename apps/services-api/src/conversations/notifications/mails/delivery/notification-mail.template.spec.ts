import { describe, expect, it } from 'vitest';
import { EXCERPT_LENGTH, excerptOf, LISTED_EVENTS, NotificationMailEvent, renderNotificationMail } from './notification-mail.template';

const assigned = (contactName: string): NotificationMailEvent => ({ kind: 'assigned', contactName, excerpt: null });

describe('the notification mail', () => {
  it('quotes a message on one line, cut to EXCERPT_LENGTH code points with an ellipsis', () => {
    expect(excerptOf('  Olá,\n\n  tudo   bem? ')).toBe('Olá, tudo bem?');
    const long = '😀'.repeat(EXCERPT_LENGTH + 10);
    const cut = excerptOf(long);
    expect([...cut]).toHaveLength(EXCERPT_LENGTH);
    expect(cut.endsWith('…')).toBe(true);
    expect(excerptOf('a'.repeat(EXCERPT_LENGTH))).toBe('a'.repeat(EXCERPT_LENGTH));
  });

  it('names the tenant and each event, and escapes every value in the HTML body', () => {
    const mail = renderNotificationMail({
      firstname: '<Bia>',
      tenantName: 'Acme & "Cia"',
      events: [assigned('<script>x</script>'), { kind: 'contactWrote', contactName: 'Maria', excerpt: "<img src=x onerror='y'>" }],
    });
    expect(mail.subject).toBe('Acme & "Cia": 2 novidades no atendimento');
    expect(mail.text).toContain('Olá, <Bia>! Enquanto você estava ausente, na equipe Acme & "Cia":');
    expect(mail.text).toContain('- O atendimento de <script>x</script> foi atribuído a você.');
    expect(mail.text).toContain(`- Maria escreveu: “<img src=x onerror='y'>”`);
    expect(mail.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(mail.html).toContain('&lt;img src=x onerror=&#39;y&#39;&gt;');
    expect(mail.html).toContain('Acme &amp; &quot;Cia&quot;');
    expect(mail.html).not.toMatch(/<script|<img|<Bia>/);
  });

  it(`lists ${LISTED_EVENTS} events and counts the rest`, () => {
    const events = Array.from({ length: LISTED_EVENTS + 5 }, (_, index) => assigned(`Contato ${index + 1}`));
    const mail = renderNotificationMail({ firstname: 'Bia', tenantName: 'Acme', events });
    expect(mail.subject).toBe(`Acme: ${LISTED_EVENTS + 5} novidades no atendimento`);
    expect(mail.text).toContain(`Contato ${LISTED_EVENTS} `);
    expect(mail.text).not.toContain(`Contato ${LISTED_EVENTS + 1} `);
    expect(mail.text).toContain('E mais 5.');
  });
});
