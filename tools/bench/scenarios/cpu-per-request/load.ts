import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoadOptions, measureCpu, startApp, StartedApp, stopProcess } from '../../harness';
import type { CapturedStatement } from '../../sql-capture';
import type { FloorOperation } from '../../sql-floor-server';
import { AppLaunch, startPlatformApps } from '../../support/start-apps';
import { CAPTURE_AFTER, CONNECTIONS } from './settings';

export interface Case {
  name: string;
  /** The processes whose CPU time the requests cost. */
  servers: ChildProcess[];
  load: Omit<LoadOptions, 'name'> & { warmUp?: number };
  /** Statuses a single request must answer before the load (none: it would use up a resource). */
  statuses?: number[];
  targetRatio?: number;
  prepare?: () => Promise<void>;
  /** Measure its floor (the same SQL from bare Fastify + pg), within this ratio. */
  floorTarget?: number;
  /** URL of each request sent to capture its SQL, when not the load's (e.g. a delete of a row kept for it). */
  captureUrl?: () => string;
}

/** An operation's floor, summed over the apps its request reaches. */
export interface Floor {
  cpuMicrosecondsPerRequest: number;
  /** Statements one request sends, over all apps. */
  statements: number;
  /** Length of the operation's JSON body, which the floor's answers match. */
  bodyBytes: number;
  target: number;
}

export interface FloorPart {
  /** Name of the floor server's route replaying it. */
  route: string;
  statements: number;
  bodyBytes: number;
}

/**
 * Starts the apps with sql-capture.js preloaded, sends each operation's
 * request CAPTURE_AFTER times and then once more, and keeps the statements
 * that last request made each app send (its floor parts, one per app that
 * reached PostgreSQL) and the length of its answer's body. Writes them where
 * the floor server reads them, then stops those apps.
 */
export async function captureFloors(
  cases: Case[],
  served: AppLaunch[],
  env: Record<string, string>,
): Promise<{ file: string; parts: Map<string, FloorPart[]> }> {
  const directory = mkdtempSync(join(tmpdir(), 'bench-sql-'));
  const capturing = served.map((app) => ({ ...app, file: join(directory, `${app.name}.jsonl`) }));
  const started: StartedApp[] = [];
  const operations: Record<string, FloorOperation> = {};
  const parts = new Map<string, FloorPart[]>();
  try {
    await startPlatformApps(
      capturing,
      (app, index) => {
        const captureEnv = { ...env, NODE_OPTIONS: `--require ${join(__dirname, '..', '..', 'sql-capture.js')}`, BENCH_SQL_CAPTURE_FILE: capturing[index].file };
        return startApp(`${app.name} (capturing SQL)`, app.script, captureEnv, app.readyUrl);
      },
      started,
    );
    for (const [index, benchCase] of cases.entries()) {
      if (!benchCase.floorTarget) continue;
      const url = benchCase.captureUrl ?? (() => benchCase.load.url);
      const init = { method: benchCase.load.method, headers: benchCase.load.headers };
      for (let sent = 0; sent < CAPTURE_AFTER; sent += 1) await (await fetch(url(), init)).arrayBuffer();
      for (const app of capturing) writeFileSync(app.file, '');
      const target = url();
      const body = Buffer.from(await (await fetch(target, init)).arrayBuffer());
      // Work a request hands on (a transport message to another app) finishes after its answer.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const caseParts: FloorPart[] = [];
      for (const app of capturing) {
        const statements = readFileSync(app.file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as CapturedStatement);
        if (!statements.length) continue;
        const route = `${index}-${app.name}`;
        // The app that answered serialises the body; another one's part answers the transport only.
        const bodyBytes = new URL(target).port === String(app.port) ? body.length : 0;
        operations[route] = { statements, bodyBytes };
        caseParts.push({ route, statements: statements.length, bodyBytes });
      }
      parts.set(benchCase.name, caseParts);
    }
  } finally {
    for (const app of started) await stopProcess(app.process);
  }
  const file = join(directory, 'floors.json');
  writeFileSync(file, JSON.stringify(operations));
  return { file, parts };
}

/** CPU per request of an operation's floor: each part replayed by the floor server under the operation's load, summed. */
export async function measureFloor(parts: FloorPart[], server: ChildProcess, port: number, load: { warmUp: number; amount: number }, target: number): Promise<Floor> {
  let cpuMicrosecondsPerRequest = 0;
  for (const part of parts) {
    const url = `http://127.0.0.1:${port}/floor/${part.route}`;
    await expectStatus(url, {}, [200]);
    const result = await measureCpu({ name: part.route, servers: [server], connections: CONNECTIONS, url, warmUp: load.warmUp, amount: load.amount });
    cpuMicrosecondsPerRequest += result.cpuMicrosecondsPerRequest;
  }
  return {
    cpuMicrosecondsPerRequest,
    statements: parts.reduce((sum, part) => sum + part.statements, 0),
    bodyBytes: parts.reduce((sum, part) => sum + part.bodyBytes, 0),
    target,
  };
}

export async function expectStatus(url: string, init: { method?: string; headers?: Record<string, string> }, statuses: number[]): Promise<void> {
  const response = await fetch(url, init);
  if (!statuses.includes(response.status)) throw new Error(`${init.method ?? 'GET'} ${url}: HTTP ${response.status} ${await response.text()}`);
}
