import { AddressInfo } from 'node:net';
import dns2 from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailDomainCheck, isDisposableDomain } from './email-domain-check';

/** Every deliverability case is covered end to end (sign-up e2e tests); here: the switch and the list. */
describe('EmailDomainCheck', () => {
  let questions = 0;
  let server: ReturnType<typeof dns2.createServer>;
  let address: string;

  beforeAll(async () => {
    // A DNS server that knows no name (NXDOMAIN) and counts the questions it gets.
    server = dns2.createServer({
      udp: true,
      handle: (request, send) => {
        questions += 1;
        const response = dns2.Packet.createResponseFromRequest(request);
        // Not a double: @types/dns2 declares the header as `{ id }` only, while dns2 encodes every field of it; rcode 3 is NXDOMAIN.
        (response.header as unknown as { rcode: number }).rcode = 3;
        send(response);
      },
    });
    await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
    address = `127.0.0.1:${(server.addresses().udp as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  const checker = (enabled: boolean) => new EmailDomainCheck({ enabled, servers: [address], timeoutMs: 500 });

  it('refuses a domain that does not exist when the check is on', async () => {
    expect(await checker(true).check('unknown.com.br')).toBe('undeliverable');
    expect(questions).toBeGreaterThan(0);
  });

  it('asks nothing when switched off, but still refuses disposable domains', async () => {
    const asked = questions;
    expect(await checker(false).check('unknown.com.br')).toBe('accepted');
    expect(await checker(false).check('mailinator.com')).toBe('disposable');
    expect(questions).toBe(asked);
  });

  it('treats subdomains of listed domains as disposable too', () => {
    expect(isDisposableDomain('33mail.com')).toBe(true);
    expect(isDisposableDomain('someone.33mail.com')).toBe(true);
    expect(isDisposableDomain('sub.mailinator.com')).toBe(true);
    expect(isDisposableDomain('gmail.com')).toBe(false);
    expect(isDisposableDomain('acme.com.br')).toBe(false);
  });
});
