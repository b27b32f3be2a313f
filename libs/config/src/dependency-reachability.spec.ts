import { once } from 'node:events';
import { createServer, Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DependencyUnreachableError, ensureReachable, platformDependencies, postgresDependency } from './dependency-reachability';
import { ConfigurationError } from './load-config';
import { exitOnStartupFailure } from './startup-failure';

/** A loopback port nothing listens on (the kernel handed it out and it was closed again). */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

describe('ensureReachable', () => {
  let listening: Server;
  let openPort: number;

  beforeAll(async () => {
    listening = createServer((socket) => socket.destroy()).listen(0, '127.0.0.1');
    await once(listening, 'listening');
    openPort = (listening.address() as { port: number }).port;
  });
  afterAll(() => new Promise((resolve) => listening.close(resolve)));

  it('goes on when every configured server accepts connections', async () => {
    await expect(
      ensureReachable(platformDependencies({ DATABASE_URL: `postgres://u:p@127.0.0.1:${openPort}/platform`, REDIS_URL: `redis://127.0.0.1:${openPort}/0` }), 0),
    ).resolves.toBeUndefined();
  });

  it('names the variable, the address and the embedded mode when PostgreSQL cannot be reached, and never the password', async () => {
    const port = await closedPort();
    const failure = await ensureReachable([postgresDependency(`postgres://app:s3cret@127.0.0.1:${port}/platform`)], 0).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DependencyUnreachableError);
    const message = (failure as Error).message;
    expect(message).toContain(`PostgreSQL at 127.0.0.1:${port} (DATABASE_URL) cannot be reached: ECONNREFUSED`);
    expect(message).toMatch(/leave DATABASE_URL and REDIS_URL unset and run `npm start`/);
    expect(message).not.toContain('s3cret');
    expect(message).not.toContain('\n');
  });
});

describe('exitOnStartupFailure', () => {
  function lineOf(error: unknown): Record<string, unknown> {
    let written = '';
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written += String(chunk);
      return true;
    });
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => {
      throw new Error('exited');
    }) as never);
    try {
      expect(() => exitOnStartupFailure(error, 'core-tenants')).toThrow('exited');
      expect(exit).toHaveBeenCalledWith(1);
    } finally {
      write.mockRestore();
      exit.mockRestore();
    }
    expect(written.endsWith('\n') && written.indexOf('\n') === written.length - 1).toBe(true);
    return JSON.parse(written) as Record<string, unknown>;
  }

  it('logs an unreachable dependency as one fatal JSON line without a stack', async () => {
    const port = await closedPort();
    const failure = await ensureReachable([postgresDependency(`postgres://127.0.0.1:${port}/platform`)], 0).catch((error: unknown) => error);
    const line = lineOf(failure);
    expect(line).toMatchObject({ level: 60, app: 'core-tenants', msg: expect.stringContaining(`(DATABASE_URL) cannot be reached`) });
    expect(line.err).toBeUndefined();
  });

  it('logs a configuration problem by its variables', () => {
    expect(lineOf(new ConfigurationError(['REDIS_URL is missing: must be a redis:// or rediss:// URL'])).msg).toContain('REDIS_URL is missing');
  });

  it('keeps the stack of an unexpected failure in the line, for whoever has to fix it', () => {
    const line = lineOf(new TypeError('boom'));
    expect(line.msg).toBe('Startup failed. boom');
    expect(line.err).toMatchObject({ type: 'TypeError', message: 'boom', stack: expect.stringContaining('TypeError: boom') });
  });
});
