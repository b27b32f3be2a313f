import { ChildProcess } from 'node:child_process';
import Redis from 'ioredis';
import { captureOutput, spawnTracked, stopChild } from './child-processes';
import { freePort } from '@platform/testing';

export interface HarnessRedisOptions {
  /** A Redis ACL file to start with (`--aclfile`): its users, and no others. */
  aclFile?: string;
  /** The user of the ACL file the harness itself connects as. */
  admin?: { username: string; password: string };
}

/**
 * A redis-server of the harness's own, on a port chosen at run time, with
 * nothing persisted: a test may stop it (an outage) and start it again on the
 * same port (the recovery), which the machine's shared Redis must never see.
 */
export class HarnessRedis {
  private child: ChildProcess | undefined;
  private output: () => string = () => '';

  private constructor(
    readonly port: number,
    private readonly options: HarnessRedisOptions,
  ) {}

  static async start(options: HarnessRedisOptions = {}): Promise<HarnessRedis> {
    const redis = new HarnessRedis(await freePort(), options);
    await redis.start();
    return redis;
  }

  /** The harness's own URL: with the ACL file, as its `admin` user. */
  get url(): string {
    return this.urlAs(this.options.admin);
  }

  /** The URL as `user` (an ACL user of the ACL file), or without credentials. */
  urlAs(user?: { username: string; password: string }): string {
    const credentials = user ? `${encodeURIComponent(user.username)}:${encodeURIComponent(user.password)}@` : '';
    return `redis://${credentials}127.0.0.1:${this.port}/0`;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  /** Starts the server (again) on its port, empty, and waits until it answers PING. */
  async start(): Promise<void> {
    if (this.child) return;
    const acl = this.options.aclFile ? ['--aclfile', this.options.aclFile] : [];
    this.child = spawnTracked('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...acl], {});
    this.output = captureOutput(this.child);
    // A bound, not a timing check: a loaded machine can take seconds to start it.
    const deadline = Date.now() + 50_000;
    for (;;) {
      if (await this.answersPing()) return;
      if (this.child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`redis-server on port ${this.port} did not start:\n${this.output()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Stops the server: connections are cut and refused until `start()`. */
  async stop(): Promise<void> {
    if (!this.child) return;
    await stopChild(this.child, 'SIGTERM', 5_000);
    this.child = undefined;
  }

  private async answersPing(): Promise<boolean> {
    const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  }
}
