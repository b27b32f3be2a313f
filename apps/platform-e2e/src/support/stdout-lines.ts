import fs from 'node:fs';

/** What the apps of this test process write to stdout, as JSON lines, while captured. */
export interface CapturedStdout {
  /** Every complete JSON line written so far. */
  lines(): Record<string, any>[];
  /** Writes to stdout go to the terminal again. */
  restore(): void;
}

type FsWrite = (fd: number, data: string | Uint8Array, ...rest: unknown[]) => unknown;

/**
 * Captures the writes to file descriptor 1, where every app's logger writes
 * its batched lines (pino's destination writes through `fs.write` and
 * `fs.writeSync`): the log lines an operator would read from the container,
 * read here instead of printed. Other descriptors are written as usual.
 */
export function captureStdout(): CapturedStdout {
  const mutableFs = fs as unknown as { write: FsWrite; writeSync: FsWrite };
  const { write, writeSync } = mutableFs;
  let text = '';
  mutableFs.write = (fd, data, ...rest) => {
    if (fd !== 1) return write(fd, data, ...rest);
    text += typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
    const done = rest[rest.length - 1] as (error: Error | null, written: number) => void;
    process.nextTick(done, null, Buffer.byteLength(data));
    return undefined;
  };
  mutableFs.writeSync = (fd, data, ...rest) => {
    if (fd !== 1) return writeSync(fd, data, ...rest);
    text += typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
    return Buffer.byteLength(data);
  };
  return {
    lines: () =>
      text
        .split('\n')
        .slice(0, -1)
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, any>),
    restore: () => {
      mutableFs.write = write;
      mutableFs.writeSync = writeSync;
    },
  };
}
