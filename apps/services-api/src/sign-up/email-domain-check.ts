import { Resolver } from 'node:dns/promises';
import { Logger } from '@nestjs/common';

export type DomainVerdict = 'accepted' | 'disposable' | 'undeliverable';

/** Domains of the `disposable-email-domains` lists; a wildcard entry covers its subdomains too. */
interface DisposableLists {
  exact: Set<string>;
  wildcards: Set<string>;
}

let lists: DisposableLists | undefined;

/**
 * The lists, read on the first check: about 120,000 domains (2.4 MB of JSON,
 * some 10 MiB of heap once in Sets) that only the sign-up paths ask about, so
 * a replica that never serves one never holds them.
 */
function disposableLists(): DisposableLists {
  lists ??= {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously, to keep it off the idle heap and start-up
    exact: new Set<string>(require('disposable-email-domains/index.json') as string[]),
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously, to keep it off the idle heap and start-up
    wildcards: new Set<string>(require('disposable-email-domains/wildcard.json') as string[]),
  };
  return lists;
}

export function isDisposableDomain(domain: string): boolean {
  const { exact: EXACT, wildcards: WILDCARDS } = disposableLists();
  if (EXACT.has(domain)) return true;
  const labels = domain.split('.');
  for (let index = 0; index < labels.length - 1; index += 1) {
    const suffix = labels.slice(index).join('.');
    if (WILDCARDS.has(suffix) || (index > 0 && EXACT.has(suffix))) return true;
  }
  return false;
}

/** Answers of a DNS question, or why there are none. */
type Lookup<T> = { records: T[] } | { absent: true } | { failed: string };

/** NXDOMAIN and NODATA mean the name has no such record; anything else (timeout, SERVFAIL, refused) tells nothing. */
const ABSENT_CODES = new Set(['ENOTFOUND', 'ENODATA']);

async function lookUp<T>(question: () => Promise<T[]>): Promise<Lookup<T>> {
  try {
    const records = await question();
    return records.length ? { records } : { absent: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    return ABSENT_CODES.has(code) ? { absent: true } : { failed: code };
  }
}

export interface DeliverabilitySettings {
  enabled: boolean;
  /** `host` or `host:port`; empty for the system's resolvers. */
  servers: string[];
  timeoutMs: number;
}

/**
 * Whether a domain can receive mail (RFC 5321 section 5.1, RFC 7505): it can
 * when it has MX records other than a lone null MX, or, without MX, an A or
 * AAAA record. A lookup that fails (timeout, SERVFAIL) proves nothing, so
 * the address is accepted: only a definite answer refuses it.
 */
export class EmailDomainCheck {
  private readonly logger = new Logger(EmailDomainCheck.name);
  private readonly resolver: Resolver;

  constructor(private readonly settings: DeliverabilitySettings) {
    this.resolver = new Resolver({ timeout: settings.timeoutMs, tries: 1 });
    if (settings.servers.length) this.resolver.setServers(settings.servers);
  }

  async check(domain: string): Promise<DomainVerdict> {
    if (isDisposableDomain(domain)) return 'disposable';
    if (!this.settings.enabled) return 'accepted';
    return (await this.deliverable(domain)) ? 'accepted' : 'undeliverable';
  }

  private async deliverable(domain: string): Promise<boolean> {
    // The three questions go out together: the slowest one bounds the time, not their sum.
    const [mx, a, aaaa] = await Promise.all([
      lookUp(() => this.resolver.resolveMx(domain)),
      lookUp(() => this.resolver.resolve4(domain)),
      lookUp(() => this.resolver.resolve6(domain)),
    ]);
    if ('records' in mx) {
      const nullMx = mx.records.length === 1 && mx.records[0].exchange.replace(/\.$/, '') === '';
      return !nullMx;
    }
    if ('records' in a || 'records' in aaaa) return true;
    const failure = [mx, a, aaaa].find((lookup): lookup is { failed: string } => 'failed' in lookup);
    if (failure) {
      this.logger.warn({ domain, code: failure.failed }, 'DNS lookup failed; accepting the address');
      return true;
    }
    return false;
  }
}
