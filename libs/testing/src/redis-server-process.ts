import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import Redis from 'ioredis';

/** A free TCP port on loopback, as the kernel hands one out. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * A Redis server of the test's own (the `redis-server` binary), on a port of
 * its own, that the test may stop and start again on the same port: how the
 * fault tests take Redis away without touching the machine's.
 */
export class RedisServerProcess {
  private process?: ChildProcess;

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServerProcess> {
    const server = new RedisServerProcess(await freePort());
    await server.resume();
    return server;
  }

  /** URL of logical database `db` on this server. */
  url(db = 0): string {
    return `redis://127.0.0.1:${this.port}/${db}`;
  }

  /** Starts the server (again) on its port, with nothing persisted, and waits until it answers. */
  async resume(): Promise<void> {
    if (this.process) return;
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    this.process = child;
    child.once('exit', () => {
      if (this.process === child) this.process = undefined;
    });
    const probe = new Redis(this.url(), { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    // Refusals are expected until the server listens; each attempt's failure is handled below.
    probe.on('error', () => undefined);
    const deadline = Date.now() + 10_000;
    try {
      for (;;) {
        try {
          await probe.connect();
          await probe.ping();
          return;
        } catch (error) {
          if (Date.now() > deadline) throw error;
          probe.disconnect();
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    } finally {
      probe.disconnect();
    }
  }

  /** Stops the server at once (SIGKILL: an outage, not a tidy shutdown) and waits until it is gone. */
  async halt(): Promise<void> {
    const child = this.process;
    if (!child) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
}
