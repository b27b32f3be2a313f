import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { parseMail, ParsedMail } from './mime';

export interface ReceivedMail extends ParsedMail {
  /** Recipients of the SMTP envelope (RCPT TO). */
  envelopeTo: string[];
  receivedAt: Date;
}

export interface SmtpStub {
  /** `smtp://127.0.0.1:<port>` */
  url: string;
  port: number;
  mails: ReceivedMail[];
  /** While set, every message is refused with this reply (e.g. 451 for a temporary failure). */
  refuseWith: { code: number; message: string } | undefined;
  /** Messages refused so far. */
  refusals: number;
  /**
   * Resolves with the first mail to `address` (case-insensitive) that arrives after `since` mails, or rejects after
   * `timeoutMs`: by default just under the suite's 60 s test timeout, since a busy machine only makes the mail later.
   */
  nextMailTo(address: string, options?: { since?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * An SMTP server on loopback that keeps every message it accepts, parsed.
 * No TLS, no authentication required (it accepts any credentials): what a
 * local mail sink does.
 */
export async function startSmtpStub(options: { port?: number; host?: string; onMail?: (mail: ReceivedMail) => void } = {}): Promise<SmtpStub> {
  const waiters = new Set<() => void>();
  const stub: SmtpStub = {
    url: '',
    port: 0,
    mails: [],
    refuseWith: undefined,
    refusals: 0,
    nextMailTo: (address, { since = 0, timeoutMs = 50_000 } = {}) =>
      new Promise<ReceivedMail>((resolve, reject) => {
        const wanted = address.toLowerCase();
        const check = () => {
          const found = stub.mails.slice(since).find((mail) => mail.envelopeTo.includes(wanted));
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${address} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'sink' }),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (stub.refuseWith) {
          stub.refusals += 1;
          const error = Object.assign(new Error(stub.refuseWith.message), { responseCode: stub.refuseWith.code });
          return callback(error);
        }
        const mail: ReceivedMail = {
          ...parseMail(Buffer.concat(chunks).toString('utf8')),
          envelopeTo: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
          receivedAt: new Date(),
        };
        stub.mails.push(mail);
        options.onMail?.(mail);
        for (const waiter of [...waiters]) waiter();
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  stub.port = (server.server.address() as AddressInfo).port;
  stub.url = `smtp://127.0.0.1:${stub.port}`;
  return stub;
}
