/**
 * A small MIME reader for the messages our own mailer sends (nodemailer):
 * headers, multipart bodies, quoted-printable and base64 parts, and
 * RFC 2047 encoded words in headers. Enough for tests and the local mail
 * viewer to read a message as its recipient would; not a general parser.
 */
export interface ParsedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  raw: string;
}

interface Part {
  headers: Record<string, string>;
  body: string;
}

function splitHeaders(raw: string): Part {
  const normalised = raw.replace(/\r\n/g, '\n');
  const end = normalised.indexOf('\n\n');
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const body = end === -1 ? '' : normalised.slice(end + 2);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let index = 0; index < joined.length; index += 1) {
    const char = joined[index];
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(joined.slice(index + 1, index + 3))) {
      bytes.push(parseInt(joined.slice(index + 1, index + 3), 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function decodeBody(part: Part): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body).toString('utf8');
  return part.body;
}

/** Decodes `=?UTF-8?Q?...?=` and `=?UTF-8?B?...?=` words. */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}

function leaves(part: Part): Part[] {
  const type = part.headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) return [part];
  const sections = part.body.split(`--${boundary}`).slice(1);
  return sections.filter((section) => !section.startsWith('--')).flatMap((section) => leaves(splitHeaders(section.replace(/^\n/, ''))));
}

function addresses(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => /<([^>]+)>/.exec(item)?.[1] ?? item.trim())
    .filter(Boolean);
}

export function parseMail(raw: string): ParsedMail {
  const message = splitHeaders(raw);
  const parts = leaves(message);
  const byType = (wanted: string) => parts.find((part) => (part.headers['content-type'] ?? 'text/plain').toLowerCase().startsWith(wanted));
  const text = byType('text/plain');
  const html = byType('text/html');
  return {
    from: decodeEncodedWords(message.headers.from ?? ''),
    to: addresses(message.headers.to),
    subject: decodeEncodedWords(message.headers.subject ?? ''),
    text: text ? decodeBody(text) : '',
    html: html ? decodeBody(html) : '',
    headers: message.headers,
    raw,
  };
}
