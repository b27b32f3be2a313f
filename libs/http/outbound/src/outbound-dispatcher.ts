import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import type { Agent, buildConnector, RequestInit, Response } from 'undici';
import { OutboundAllowList } from './allow-list';
import { isPublicAddress } from './public-address';

/** Resolves a host name to its addresses (IPv4 and IPv6). */
export type OutboundResolver = (hostname: string) => Promise<string[]>;

export interface OutboundPolicy {
  allowList: OutboundAllowList;
  /** Production: plain http is refused, allow-listed destinations included. */
  httpsOnly: boolean;
  /** The system's resolver (getaddrinfo) unless given, e.g. dnsResolver(servers). */
  resolve?: OutboundResolver;
}

/**
 * A destination the policy does not allow. Callers report it exactly like a
 * closed port or a failed DNS look-up: telling them apart would map the
 * network behind the platform.
 */
export class OutboundRefused extends Error {
  constructor() {
    super('destination refused by the outbound policy');
  }
}

const systemResolver: OutboundResolver = async (hostname) => (await dns.lookup(hostname, { all: true, verbatim: true })).map((found) => found.address);

/** A resolver asking the given DNS servers (`host` or `host:port`) instead of the system's. */
export function dnsResolver(servers: string[]): OutboundResolver {
  const resolver = new dns.Resolver();
  resolver.setServers(servers);
  return async (hostname) => {
    const answers = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses = answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
    if (addresses.length === 0) throw new Error(`${hostname} has no address`);
    return addresses;
  };
}

type Undici = typeof import('undici');
let undiciModule: Undici | undefined;

/**
 * undici, loaded on the first outbound call: about 110 modules that cost
 * every replica's start-up, while only processing traces call out today.
 */
function undici(): Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously, to keep it off the idle heap and start-up
  undiciModule ??= require('undici') as Undici;
  return undiciModule;
}

type Connector = ReturnType<typeof buildConnector>;
type LookupCallback = (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void;

/**
 * The socket's own DNS look-up (net.connect's `lookup`), answering only
 * addresses that pass the check: Node connects to what it answers (trying
 * each in turn, IPv6 and IPv4), so the address checked is the address
 * connected to, whatever the name resolves to a moment later.
 */
function checkedLookup(resolve: OutboundResolver, allowed: (address: string) => boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    resolve(hostname).then(
      (addresses) => {
        // Every address must pass: a name that mixes public and private addresses is not one to trust.
        if (addresses.length === 0 || !addresses.every(allowed)) return callback(new OutboundRefused(), []);
        const found = addresses.map((address) => ({ address, family: isIP(address) }));
        if (options.all) callback(null, found);
        else callback(null, found[0].address, found[0].family);
      },
      () => callback(new OutboundRefused(), []),
    );
  };
}

/**
 * The undici connector with the policy in front of it. The check runs at
 * connect time, on the addresses the socket may open, after resolution: a
 * name that resolves to a public address when a URL is saved and to
 * loopback later (DNS rebinding) is refused, and so is a literal private
 * address in the URL (which no DNS look-up would ever see). One connector
 * per port, as allow-list entries may name a port.
 */
function guardedConnector(policy: OutboundPolicy): Connector {
  const resolve = policy.resolve ?? systemResolver;
  const { buildConnector } = undici();
  const unchecked = buildConnector({});
  const checkedByPort = new Map<number, Connector>();
  const allowedOn = (port: number) => (address: string) => isPublicAddress(address) || policy.allowList.allowsAddress(address, port);
  const checkedConnector = (port: number) => {
    let connector = checkedByPort.get(port);
    if (!connector) {
      // net.connect and tls.connect take `lookup`; undici's options type does not list it.
      connector = buildConnector({ lookup: checkedLookup(resolve, allowedOn(port)) } as buildConnector.BuildOptions);
      checkedByPort.set(port, connector);
    }
    return connector;
  };
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    const refuse = () => callback(new OutboundRefused(), null);
    if (policy.httpsOnly && options.protocol !== 'https:') return refuse();
    if (policy.allowList.allowsHost(options.hostname, port)) return unchecked(options, callback);
    if (isIP(options.hostname)) return allowedOn(port)(options.hostname) ? unchecked(options, callback) : refuse();
    return checkedConnector(port)(options, callback);
  };
}

/**
 * The one way the platform calls a URL that comes from data (a plugin's
 * trace endpoint today, webhooks tomorrow): fetch over a dispatcher that
 * connects to public addresses only, plus the operator's allow-list
 * (docs/security.md, Outbound calls).
 */
export class OutboundHttp {
  /** Made by the first call (with undici itself): an app that never calls out never loads it. */
  private dispatcher: Agent | undefined;

  constructor(private readonly policy: OutboundPolicy) {}

  fetch(url: string, init: Omit<RequestInit, 'dispatcher'> = {}): Promise<Response> {
    const { Agent, fetch } = undici();
    this.dispatcher ??= new Agent({ connect: guardedConnector(this.policy) });
    return fetch(url, { ...init, dispatcher: this.dispatcher });
  }

  async close(): Promise<void> {
    await this.dispatcher?.close();
  }

  /** Nest calls this when the app closes: kept-alive provider connections are let go. */
  async onModuleDestroy(): Promise<void> {
    await this.close();
  }
}
