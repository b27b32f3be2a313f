import { CpuResult, benchNodeVersion, StartedApp } from '../../harness';
import type { Footprint } from '../../footprint';
import { rssMebibytesOf } from '../../process-usage';
import type { Floor } from './load';
import { CONNECTIONS, DELETES, REQUESTS, WARM_UP } from './settings';

export interface Row {
  name: string;
  /** Ratio to the Nest hello this row must stay within, if it has a target. */
  targetRatio?: number;
  result: CpuResult;
  footprint: Footprint;
  floor?: Floor;
}

export function printCpuTable(rows: Row[]): void {
  const hello = rows[0].result;
  const ratioOf = (row: Row) => row.result.cpuMicrosecondsPerRequest / hello.cpuMicrosecondsPerRequest;
  const op15 = rows.find((row) => row.name.startsWith('op 15'));
  const lines = [
    `\nCPU per request of the serving process(es) on Node.js ${benchNodeVersion()}, ${REQUESTS} requests (op 1: ${DELETES}) at ${CONNECTIONS} connections after ${WARM_UP} warm-up requests`,
    '| request | CPU per request | ratio to the hello | target | req/s | non-2xx | bytes per answer |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((row) => {
      const target = row.targetRatio === undefined ? '' : `≤ ${row.targetRatio}x ${ratioOf(row) <= row.targetRatio ? 'met' : 'NOT MET'}`;
      return `| ${row.name} | ${row.result.cpuMicrosecondsPerRequest} µs | ${ratioOf(row).toFixed(1)}x | ${target} | ${row.result.requestsPerSecond} | ${row.result.non2xx} | ${row.result.bytesPerResponse ?? ''} |`;
    }),
  ];
  if (op15) {
    const share = op15.result.requestsPerSecond / hello.requestsPerSecond;
    lines.push(`\nThroughput of op 15 at ${CONNECTIONS} connections: ${Math.round(share * 100)}% of the hello's (target ≥ 35%: ${share >= 0.35 ? 'met' : 'NOT MET'})`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * Each operation beside its floor: bare Fastify + pg sending the same
 * statements and answering a body of the same size (sql-floor-server.ts),
 * under the same load. For operation 1 the floor is the sum of its two apps'
 * parts; its statements are every app's.
 */
export function printFloorTable(rows: Row[]): void {
  const withFloor = rows.filter((row) => row.floor);
  if (!withFloor.length) return;
  const lines = [
    `\nCPU per request against the floor (bare Fastify + pg, ${CONNECTIONS} pooled connections, the operation's own statements and body size)`,
    '| request | CPU per request | floor | ratio to the floor | target | statements | body bytes |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...withFloor.map((row) => {
      const floor = row.floor as Floor;
      const ratio = row.result.cpuMicrosecondsPerRequest / floor.cpuMicrosecondsPerRequest;
      return (
        `| ${row.name} | ${row.result.cpuMicrosecondsPerRequest} µs | ${floor.cpuMicrosecondsPerRequest} µs | ${ratio.toFixed(2)}x | ` +
        `≤ ${floor.target}x ${ratio <= floor.target ? 'met' : 'NOT MET'} | ${floor.statements} | ${floor.bodyBytes} |`
      );
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

export function printFootprintTable(rows: Row[]): void {
  const lines = [
    '\nFootprint per request (warm-up included; PostgreSQL through PgBouncer in transaction mode)',
    '| request | PostgreSQL transactions | PostgreSQL statements | server-connection ms | Redis commands | transport messages |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(({ name, footprint: f }) => `| ${name} | ${f.transactions.toFixed(2)} | ${f.queries.toFixed(2)} | ${f.transactionMs.toFixed(3)} | ${f.redisCommands.toFixed(2)} | ${f.transportMessages.toFixed(2)} |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

export function printApps(apps: StartedApp[]): void {
  const lines = [
    '\n| app | start to ready | CPU until ready | RSS idle | RSS after the load |',
    '|---|---:|---:|---:|---:|',
    ...apps.map((app) => `| ${app.name} | ${app.startToReadyMs} ms | ${app.cpuToReadyMs} ms | ${app.rssIdleMiB} MiB | ${rssMebibytesOf(app.process.pid as number)} MiB |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
