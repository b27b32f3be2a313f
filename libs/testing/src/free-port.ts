import { once } from 'node:events';
import { AddressInfo, createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listens on right now (the kernel picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
