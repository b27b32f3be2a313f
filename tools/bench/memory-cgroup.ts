import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the cgroup v1 memory controller is mounted on Linux. */
const MEMORY_CONTROLLER = '/sys/fs/cgroup/memory';

/**
 * A cgroup v1 memory cgroup with a limit, as a pod's container runs in one
 * (Kubernetes writes the container's `limits.memory` to memory.limit_in_bytes).
 * A process started through `wrap()` runs inside it from its first
 * instruction. Needs root and the v1 memory controller mounted.
 */
export class MemoryCgroup {
  private constructor(readonly path: string) {}

  static available(): boolean {
    return existsSync(join(MEMORY_CONTROLLER, 'memory.limit_in_bytes'));
  }

  /** Creates (or reuses) the cgroup `name` under the controller's root with `limitBytes` (undefined: no limit). */
  static create(name: string, limitBytes: number | undefined): MemoryCgroup {
    const path = join(MEMORY_CONTROLLER, name);
    mkdirSync(path, { recursive: true });
    const group = new MemoryCgroup(path);
    group.write('memory.limit_in_bytes', limitBytes === undefined ? '-1' : String(limitBytes));
    group.resetCounters();
    return group;
  }

  /** Zeroes the limit-hit counter and the peak usage, so a run reads its own. */
  resetCounters(): void {
    this.write('memory.failcnt', '0');
    this.write('memory.max_usage_in_bytes', '0');
  }

  /** A command line that joins this cgroup, then becomes `command` (same pid: `exec`). */
  wrap(command: string, args: string[]): { command: string; args: string[] } {
    return { command: '/bin/sh', args: ['-c', `echo $$ > ${join(this.path, 'cgroup.procs')} && exec "$@"`, 'sh', command, ...args] };
  }

  /** Times usage reached the limit (the kernel then reclaims, or OOM-kills when it cannot). */
  failCount(): number {
    return Number(this.read('memory.failcnt'));
  }

  /** Processes of this cgroup the OOM killer ended (the `oom_kill` line of memory.oom_control). */
  oomKills(): number {
    return Number(/^oom_kill (\d+)$/m.exec(this.read('memory.oom_control'))?.[1] ?? 0);
  }

  /** Highest usage charged to the cgroup (RSS and page cache) since the last reset, in MiB. */
  maxUsageMiB(): number {
    return Number(this.read('memory.max_usage_in_bytes')) / 2 ** 20;
  }

  /** Removes the cgroup; its processes must have exited. */
  remove(): void {
    removeDirectory(this.path);
  }

  /**
   * Removes the cgroup `name` and the cgroups below it (those of `create('<name>/<app>')`),
   * deepest first, so a run leaves nothing under the controller; their processes must have exited.
   */
  static removeTree(name: string): void {
    const path = join(MEMORY_CONTROLLER, name);
    if (!existsSync(path)) return;
    for (const entry of readdirSync(path, { withFileTypes: true })) if (entry.isDirectory()) MemoryCgroup.removeTree(join(name, entry.name));
    removeDirectory(path);
  }

  private read(file: string): string {
    return readFileSync(join(this.path, file), 'utf8');
  }

  private write(file: string, value: string): void {
    writeFileSync(join(this.path, file), value);
  }
}

/** rmdir of a cgroup (its control files go with it); a process still exiting keeps it busy, and an empty cgroup left behind costs nothing. */
function removeDirectory(path: string): void {
  try {
    rmdirSync(path);
  } catch {
    // Busy: left as it is.
  }
}

/** A Kubernetes memory quantity (`512Mi`, `1Gi`, `800M`, bytes) in bytes. */
export function bytesOfQuantity(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G)?$/.exec(quantity.trim().replace(/^"|"$/g, ''));
  if (!match) throw new Error(`not a memory quantity: ${quantity}`);
  const unit = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, K: 1e3, M: 1e6, G: 1e9 }[match[2] ?? ''] ?? 1;
  return Math.round(Number(match[1]) * unit);
}
