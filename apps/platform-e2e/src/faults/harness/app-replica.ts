import { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { captureOutput, exitOf, spawnTracked, stopChild } from './child-processes';

/** The apps with a REST API, which the fault platform starts and balances. */
export type AppName = 'core-tenants' | 'services-api' | 'plugins-helpdesk';

/** Every app of `npm run build`, the real-time gateway included (a test starts it beside the platform). */
export type BuiltApp = AppName | 'realtime-gateway';

/** The variable each app reads its HTTP port from (docs/configuration.md). */
const PORT_VARIABLE: Record<BuiltApp, string> = {
  'core-tenants': 'CORE_TENANTS_PORT',
  'services-api': 'SERVICES_API_PORT',
  'plugins-helpdesk': 'PLUGINS_HELPDESK_PORT',
  'realtime-gateway': 'REALTIME_GATEWAY_PORT',
};

/** As `npm start` waits; generous because every replica boots at once on a shared machine. */
const READY_TIMEOUT_MS = 60_000;

/**
 * One replica of an app as production runs it: `node dist/apps/<app>/src/main.js`
 * (the build of `npm run build`) in its own process, on its own port.
 */
export class AppReplica<App extends BuiltApp = AppName> {
  private child: ChildProcess | undefined;
  private output: () => string = () => '';

  constructor(
    readonly app: App,
    readonly port: number,
    /** The environment of every start; `start(extra)` adds to it. */
    readonly env: NodeJS.ProcessEnv,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** What the process wrote to stdout and stderr (its latest part). */
  logs(): string {
    return this.output();
  }

  /** Starts the process and waits until `/health/ready` answers 200. */
  async start(extraEnv: NodeJS.ProcessEnv = {}): Promise<void> {
    if (this.running) throw new Error(`${this.app} on port ${this.port} is already running`);
    const main = resolve(process.cwd(), 'dist/apps', this.app, 'src/main.js');
    this.child = spawnTracked(process.execPath, ['--enable-source-maps', main], {
      // Metrics on any free port: replicas of one app share the machine, and no test here scrapes them.
      env: { METRICS_PORT: '0', ...this.env, ...extraEnv, [PORT_VARIABLE[this.app]]: String(this.port) },
    });
    this.output = captureOutput(this.child);
    await this.waitUntilReady();
  }

  async waitUntilReady(timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running) throw new Error(`${this.app} on port ${this.port} exited before it was ready:\n${this.logs()}`);
      const ready = await fetch(`${this.url}/health/ready`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ready) return;
      if (Date.now() > deadline) throw new Error(`${this.app} on port ${this.port} was not ready within ${timeoutMs} ms:\n${this.logs()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Whether a new connection to the replica's port is refused (it no longer
   * listens). A bare TCP connect, not an HTTP request: it asks whether the port
   * listens, which no API operation (nor the typed clients) can answer.
   */
  async refusesConnections(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = connect(this.port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
  }

  /** Sends `signal` (no wait); `exited()` tells when and how the process ended. */
  kill(signal: NodeJS.Signals): void {
    this.child?.kill(signal);
  }

  /** How the process ended; waits for it. */
  async exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (!this.child) throw new Error(`${this.app} on port ${this.port} was never started`);
    return exitOf(this.child);
  }

  /** A graceful stop (SIGTERM, as an orchestrator does), waiting for the exit. */
  async stop(): Promise<void> {
    if (this.child) await stopChild(this.child, 'SIGTERM');
  }
}
