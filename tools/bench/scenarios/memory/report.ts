import { benchNodeVersion, percentiles } from '../../harness';
import { StreamResult } from '../../steady-load';
import { PlatformApp } from '../../support/start-apps';
import { STARTUP_RUNS, TARGETS } from './settings';

export interface AppMemory {
  name: PlatformApp;
  limitMiB?: number;
  idleMiB: number;
  peakMiB: number;
  endMiB: number;
  /** Growth of RSS over the last half of the load (least-squares line through its samples), as a share. */
  growthLastHalf: number;
  cgroupPeakMiB: number;
  gc: GcTotals;
  failCount: number;
  oomKills: number;
  exit?: string;
}

export interface GcTotals {
  count: number;
  seconds: number;
}

export interface Startup {
  wallMs: number;
  cpuMs: number;
}

export interface SoakResult {
  seconds: number;
  streams: StreamResult[];
  apps: AppMemory[];
}

const mib = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : '–');
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

export function printStartups(times: Map<PlatformApp, Startup[]>): void {
  const lines = [
    `\nStart to /health/ready 200 (built, plain node ${benchNodeVersion()}, no migrations, in the pod's memory limit; ${STARTUP_RUNS} starts each; CPU: the process's user + system time until then)`,
    '| app | median | min | max | every start | CPU until ready, median | target ≤ 1,500 ms |',
    '|---|---:|---:|---:|---|---:|---|',
    ...[...times].map(([name, runs]) => {
      const wall = runs.map((run) => run.wallMs).sort((a, b) => a - b);
      const median = percentiles(wall).p50;
      const cpu = percentiles(runs.map((run) => run.cpuMs)).p50;
      return `| ${name} | ${median} ms | ${wall[0]} ms | ${wall.at(-1)} ms | ${runs.map((run) => run.wallMs).join(', ')} | ${cpu} ms | ${median <= 1500 ? 'met' : 'NOT MET'} |`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

export function printSoak(limited: SoakResult, unlimited: SoakResult): void {
  const lines = [
    `\nMemory under the pods' limits: ${limited.seconds} s of the mixed load (RSS from /proc; growth: least-squares line through the last ${limited.seconds / 2} s)`,
    '| app | limit | RSS idle | RSS peak | peak / limit (≤ 60%) | RSS at the end | growth over the last half (≤ 5%) | cgroup peak (RSS + cache) | GC: pauses, total | limit hits | OOM kills |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...limited.apps.map((app) => {
      const share = app.peakMiB / (app.limitMiB as number);
      const gcShare = app.gc.seconds / limited.seconds;
      return (
        `| ${app.name} | ${app.limitMiB} MiB | ${mib(app.idleMiB)} MiB | ${mib(app.peakMiB)} MiB | ${percent(share)} ${share <= TARGETS.peakShareOfLimit ? 'met' : 'NOT MET'} | ${mib(app.endMiB)} MiB | ` +
        `${percent(app.growthLastHalf)} ${app.growthLastHalf <= TARGETS.growthOverLastHalf ? 'met' : 'NOT MET'} | ${mib(app.cgroupPeakMiB)} MiB | ` +
        `${app.gc.count}, ${(app.gc.seconds * 1000).toFixed(0)} ms (${percent(gcShare)} of the time) | ${app.failCount} | ${app.oomKills}${app.exit ? ` (${app.exit})` : ''} |`
      );
    }),
    `\nThe same load without limits, ${unlimited.seconds} s`,
    '| app | RSS idle | RSS peak | RSS at the end | GC: pauses, total |',
    '|---|---:|---:|---:|---:|',
    ...unlimited.apps.map((app) => `| ${app.name} | ${mib(app.idleMiB)} MiB | ${mib(app.peakMiB)} MiB | ${mib(app.endMiB)} MiB | ${app.gc.count}, ${(app.gc.seconds * 1000).toFixed(0)} ms |`),
    `\nLatency of each stream of the load, limited against unlimited`,
    '| stream | rate | sent (limited) | p50 limited | p99 limited | p99 unlimited | unexpected answers (limited / unlimited) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...limited.streams.map((stream, index) => {
      const reference = unlimited.streams[index];
      const why = [stream.firstUnexpected, reference.firstUnexpected].filter(Boolean).join('; ');
      return `| ${stream.name} | ${(stream.sent / limited.seconds).toFixed(1)}/s | ${stream.sent} | ${stream.p50Ms} ms | ${stream.p99Ms} ms | ${reference.p99Ms} ms | ${stream.unexpected} / ${reference.unexpected}${why ? ` (${why})` : ''} |`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
