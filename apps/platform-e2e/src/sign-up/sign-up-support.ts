import { Clock } from '@platform/scheduling';
import { DnsStub, ReceivedMail, SmtpStub, startDnsStub, startSmtpStub } from '@platform/testing';
import { vi } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';
import { sentAsIs } from '../support/sent-as-is';

/** Domains the local DNS server answers for, one per case of the deliverability rule. */
export const DOMAINS = {
  /** MX records: deliverable. */
  mx: 'acme-atendimento.com.br',
  /** A lone null MX (RFC 7505): undeliverable. */
  nullMx: 'no-mail.com.br',
  /** No MX but an A record: deliverable (implicit MX). */
  aOnly: 'a-only.com.br',
  /** No MX but an AAAA record: deliverable. */
  aaaaOnly: 'ipv6-only.com.br',
  /** A null MX beside a real one: not a null MX, deliverable. */
  nullAndRealMx: 'mixed-mx.com.br',
  /** No MX, no A, no AAAA (NODATA): undeliverable. */
  noRecords: 'parked.com.br',
  /** SERVFAIL: tells nothing, accepted. */
  servfail: 'broken-dns.com.br',
  /** Never answers: a timeout tells nothing, accepted. */
  silent: 'slow-dns.com.br',
  /** Unknown to the server: NXDOMAIN, undeliverable. */
  nxdomain: 'does-not-exist.com.br',
} as const;

export interface SignUpPlatform {
  platform: TestPlatform;
  smtp: SmtpStub;
  dns: DnsStub;
  /** Moves the clocks of services-api and core-tenants forward. */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

/** core-tenants and services-api with a real SMTP server and a real DNS server on loopback, and a movable clock. */
export async function startSignUpPlatform(env: Record<string, string> = {}): Promise<SignUpPlatform> {
  const smtp = await startSmtpStub();
  const dns = await startDnsStub({
    [DOMAINS.mx]: { mx: [{ exchange: `mail.${DOMAINS.mx}`, priority: 10 }] },
    [DOMAINS.nullMx]: { mx: [{ exchange: '', priority: 0 }], a: ['192.0.2.10'] },
    [DOMAINS.aOnly]: { a: ['192.0.2.11'] },
    [DOMAINS.aaaaOnly]: { aaaa: ['2001:db8::11'] },
    [DOMAINS.nullAndRealMx]: { mx: [{ exchange: '', priority: 0 }, { exchange: `mail.${DOMAINS.nullAndRealMx}`, priority: 10 }] },
    [DOMAINS.noRecords]: {},
    [DOMAINS.servfail]: { servfail: true },
    [DOMAINS.silent]: { silent: true },
  });
  const platform = await startPlatform({
    apps: ['core-tenants', 'services-api'],
    env: {
      SMTP_URL: smtp.url,
      SMTP_TIMEOUT_MS: '10000',
      EMAIL_DNS_SERVERS: dns.server,
      // Far above the DNS stub's loopback answer even on a loaded machine: a look-up past it proves nothing, and an
      // address the stub's answer refuses would be accepted.
      EMAIL_DNS_TIMEOUT_MS: '3000',
      EMAIL_RETRY_DELAY_SECONDS: '1',
      EMAIL_RETRY_LIMIT: '3',
      JOBS_POLLING_INTERVAL_MS: '1000',
      // The tests play clients at many addresses, each sent as X-Forwarded-For through a proxy on loopback.
      TRUST_PROXY: 'loopback',
      ...env,
    },
  });
  let offset = 0;
  // Both apps judge sign-up times: services-api the codes and mails, core-tenants the invitations' expiry.
  for (const app of ['services-api', 'core-tenants'] as const) {
    vi.spyOn(platform.apps[app]!.get(Clock), 'now').mockImplementation(() => new Date(Date.now() + offset));
  }
  return {
    platform,
    smtp,
    dns,
    advanceClock: (ms) => {
      offset += ms;
    },
    async close() {
      await platform.close();
      await smtp.close();
      await dns.close();
    },
  };
}

let ipCounter = 0;
/** A client address of its own, so tests never share the per-IP limit. */
export const freshIp = () => `10.60.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

let addressCounter = 0;
export const freshAddress = (domain: string = DOMAINS.mx) => `person-${Date.now().toString(36)}-${addressCounter++}@${domain}`;

/** Operation 8; `body` as a test sends it, inside the contract or on purpose outside it. */
export function requestCode(platform: TestPlatform, body: unknown, headers: Record<string, string> = {}) {
  return platform.api.services.POST('/v1/operators/email-verification', { ...sentAsIs(body), headers: { 'x-forwarded-for': freshIp(), ...headers } });
}

export function signUp(platform: TestPlatform, body: unknown) {
  return platform.api.services.POST('/v1/operators', { ...sentAsIs(body), headers: { 'x-forwarded-for': freshIp() } });
}

/** The six-digit code of a verification mail (its text body). */
export function codeOf(mail: ReceivedMail): string {
  const code = /^(\d{6})$/m.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in mail: ${mail.text}`);
  return code;
}

/** The states of the mail jobs to `address`, oldest first. */
export async function mailJobStates(platform: TestPlatform, address: string): Promise<{ state: string; retryCount: number }[]> {
  return platform.dataSource.query(
    `SELECT state, retry_count AS "retryCount" FROM pgboss.job WHERE name = 'sign-up-mail' AND data->>'to' = $1 ORDER BY created_on`,
    [address],
  );
}
