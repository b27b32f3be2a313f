import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Kernel clock ticks per second, the unit of utime and stime in /proc/<pid>/stat. */
const CLOCK_TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU time (user + system) a process has used so far, in microseconds, from
 * /proc/<pid>/stat. Unlike wall-clock figures it does not depend on what else
 * the machine is doing, so it compares runs on a shared machine.
 */
export function cpuMicrosecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3, "state".
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}

/** Resident set size of a process in MiB, from /proc/<pid>/status. */
export function rssMebibytesOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kibibytes = Number(/^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1] ?? 0);
  return Math.round((kibibytes / 1024) * 10) / 10;
}

/** The largest resident set size a process has had, in MiB (VmHWM of /proc/<pid>/status). */
export function peakRssMebibytesOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kibibytes = Number(/^VmHWM:\s+(\d+)\s+kB$/m.exec(status)?.[1] ?? 0);
  return Math.round((kibibytes / 1024) * 10) / 10;
}
