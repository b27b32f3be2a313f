import { createServer, Server } from 'node:http';
import { ReceivedMail, SmtpStub, startSmtpStub } from '@platform/testing';

export interface MailSink {
  smtpUrl: string;
  viewerUrl: string;
  close(): Promise<void>;
}

const escape = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The newest mails first; the HTML body is shown sandboxed, as a mail client would. */
function page(mails: ReceivedMail[]): string {
  const items = [...mails]
    .reverse()
    .map(
      (mail, index) => `<article>
  <h2>${escape(mail.subject || '(no subject)')}</h2>
  <p class="meta">to ${escape(mail.envelopeTo.join(', '))} · from ${escape(mail.from)} · ${mail.receivedAt.toISOString()}</p>
  <details open><summary>text</summary><pre>${escape(mail.text)}</pre></details>
  <details><summary>HTML</summary><iframe sandbox title="mail ${index}" srcdoc="${escape(mail.html)}"></iframe></details>
</article>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Mail sink (${mails.length})</title>
<meta http-equiv="refresh" content="5">
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;color:#1f2933}article{border:1px solid #cbd2d9;border-radius:6px;padding:0 1rem 1rem;margin-bottom:1rem}
.meta{color:#52606d;font-size:.9rem}pre{white-space:pre-wrap;background:#f5f7fa;padding:.5rem}iframe{width:100%;height:18rem;border:1px solid #e4e7eb}</style></head>
<body><h1>Mail sink</h1><p>${mails.length} message(s) since start; this page refreshes every 5 s. JSON: <a href="/messages.json">/messages.json</a></p>
${items || '<p>No mail yet.</p>'}</body></html>`;
}

/**
 * The quick start's e-mail provider: an SMTP server that keeps every mail in
 * memory and a small web page listing them, so a sign-up can be followed
 * end to end without any mail account.
 */
export async function startMailSink(smtpPort: number, httpPort: number): Promise<MailSink> {
  const smtp: SmtpStub = await startSmtpStub({ port: smtpPort });
  const viewer: Server = createServer((request, response) => {
    if (request.url === '/messages.json') {
      const messages = smtp.mails.map(({ raw: _raw, headers: _headers, ...mail }) => mail);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(messages, null, 2));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(smtp.mails));
  });
  await new Promise<void>((resolve, reject) => {
    viewer.once('error', reject);
    viewer.listen(httpPort, '127.0.0.1', () => resolve());
  });
  return {
    smtpUrl: smtp.url,
    viewerUrl: `http://127.0.0.1:${httpPort}`,
    close: async () => {
      await new Promise<void>((resolve) => viewer.close(() => resolve()));
      await smtp.close();
    },
  };
}
