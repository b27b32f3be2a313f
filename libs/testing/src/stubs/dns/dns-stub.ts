import { AddressInfo } from 'node:net';
import dns2 from 'dns2';

const { Packet } = dns2;
/** RFC 1035 section 4.1.1 response codes (dns2 has them at runtime; its types do not). */
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3 } as const;

/** What the stub answers for one name. Names it does not know get NXDOMAIN. */
export interface DnsZoneEntry {
  /** MX records; `{exchange: '', priority: 0}` alone is a null MX (RFC 7505). */
  mx?: { exchange: string; priority: number }[];
  a?: string[];
  aaaa?: string[];
  /** Answer SERVFAIL to every question about this name. */
  servfail?: boolean;
  /** Never answer (the client times out). */
  silent?: boolean;
}

export interface DnsStub {
  /** `127.0.0.1:<port>`, for a resolver's setServers. */
  server: string;
  zone: Map<string, DnsZoneEntry>;
  /** Questions received, as `TYPE name`. */
  questions: string[];
  close(): Promise<void>;
}

/**
 * An authoritative DNS server on loopback (UDP) answering MX, A and AAAA from
 * a zone the test fills: NOERROR with records, NOERROR without (NODATA),
 * NXDOMAIN for unknown names, SERVFAIL or silence on demand.
 */
export async function startDnsStub(zone: Record<string, DnsZoneEntry> = {}): Promise<DnsStub> {
  const entries = new Map(Object.entries(zone).map(([name, entry]) => [name.toLowerCase(), entry]));
  const questions: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question.name.toLowerCase();
      const entry = entries.get(name);
      const typeName = Object.entries(Packet.TYPE).find(([, value]) => value === question.type)?.[0] ?? String(question.type);
      questions.push(`${typeName} ${name}`);
      if (entry?.silent) return;
      const header = response.header as unknown as { rcode: number; aa: number };
      header.aa = 1;
      if (!entry) header.rcode = RCODE.NXDOMAIN;
      else if (entry.servfail) header.rcode = RCODE.SERVFAIL;
      else if (question.type === Packet.TYPE.MX) {
        for (const mx of entry.mx ?? []) {
          response.answers.push({ name: question.name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 60, exchange: mx.exchange, priority: mx.priority } as never);
        }
      } else if (question.type === Packet.TYPE.A) {
        for (const address of entry.a ?? []) response.answers.push({ name: question.name, type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 60, address } as never);
      } else if (question.type === Packet.TYPE.AAAA) {
        for (const address of entry.aaaa ?? []) response.answers.push({ name: question.name, type: Packet.TYPE.AAAA, class: Packet.CLASS.IN, ttl: 60, address } as never);
      }
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = (server.addresses().udp as AddressInfo).port;
  return {
    server: `127.0.0.1:${port}`,
    zone: entries,
    questions,
    close: () => server.close(),
  };
}
