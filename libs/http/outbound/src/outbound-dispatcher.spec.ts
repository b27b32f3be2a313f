import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundAllowList } from './allow-list';
import { OutboundHttp, OutboundPolicy, OutboundRefused } from './outbound-dispatcher';

describe('OutboundHttp', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  const clients: OutboundHttp[] = [];

  const client = (policy: Partial<OutboundPolicy>) => {
    const created = new OutboundHttp({ allowList: OutboundAllowList.empty, httpsOnly: false, ...policy });
    clients.push(created);
    return created;
  };
  const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: TypeError) => error.cause);

  beforeAll(async () => {
    server = createServer((_request, response) => response.end('ok'));
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const created of clients) await created.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('refuses a literal loopback address before any connection, by default', async () => {
    const before = connections;
    expect(await refusal(client({}).fetch(`http://127.0.0.1:${port}/`))).toBeInstanceOf(OutboundRefused);
    expect(await refusal(client({}).fetch(`http://[::ffff:127.0.0.1]:${port}/`))).toBeInstanceOf(OutboundRefused);
    expect(await refusal(client({}).fetch('http://169.254.169.254/latest/meta-data/'))).toBeInstanceOf(OutboundRefused);
    expect(connections).toBe(before);
  });

  it('checks the address a name resolves to when connecting, not the name (DNS rebinding)', async () => {
    const before = connections;
    const rebound = client({ resolve: async () => ['127.0.0.1'] });
    expect(await refusal(rebound.fetch(`http://rebind.example:${port}/`))).toBeInstanceOf(OutboundRefused);
    const mixed = client({ resolve: async () => ['93.184.216.34', '10.0.0.1'] });
    expect(await refusal(mixed.fetch(`http://mixed.example:${port}/`))).toBeInstanceOf(OutboundRefused);
    expect(connections).toBe(before);
  });

  it('resolves and checks https hosts the same way (the name stays the TLS server name)', async () => {
    const rebound = client({ resolve: async () => ['127.0.0.1'] });
    expect(await refusal(rebound.fetch('https://rebind.example/'))).toBeInstanceOf(OutboundRefused);
    // Allowed, the socket goes where the checked look-up said: loopback, where this port answers no TLS.
    const allowed = client({ resolve: async () => ['127.0.0.1'], allowList: OutboundAllowList.parse(`127.0.0.1:${port}`) });
    const before = connections;
    const failure = await refusal(allowed.fetch(`https://sandbox.example:${port}/`));
    expect(failure).not.toBeInstanceOf(OutboundRefused);
    expect(connections).toBe(before + 1);
  });

  it('answers a failed look-up like a refused address', async () => {
    const failing = client({ resolve: async () => Promise.reject(new Error('ENOTFOUND')) });
    expect(await refusal(failing.fetch('http://nowhere.example/'))).toBeInstanceOf(OutboundRefused);
  });

  it('reaches an allow-listed address on its port, and a name allow-listed whatever it resolves to', async () => {
    const byAddress = client({ allowList: OutboundAllowList.parse(`127.0.0.1:${port}`) });
    expect(await (await byAddress.fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');
    expect(await refusal(byAddress.fetch(`http://127.0.0.1:${port + 1 > 65_535 ? port - 1 : port + 1}/`))).toBeInstanceOf(OutboundRefused);
    const byResolvedAddress = client({ allowList: OutboundAllowList.parse(`127.0.0.1:${port}`), resolve: async () => ['127.0.0.1'] });
    expect(await (await byResolvedAddress.fetch(`http://sandbox.example:${port}/`)).text()).toBe('ok');
    const byName = client({ allowList: OutboundAllowList.parse('localhost') });
    expect(await (await byName.fetch(`http://localhost:${port}/`)).text()).toBe('ok');
  });

  it('refuses plain http when https only (production), allow-listed destinations included', async () => {
    const before = connections;
    const production = client({ httpsOnly: true, allowList: OutboundAllowList.parse('127.0.0.1') });
    expect(await refusal(production.fetch(`http://127.0.0.1:${port}/`))).toBeInstanceOf(OutboundRefused);
    expect(connections).toBe(before);
  });
});
