import { ErrorReply, Reply } from './resp';

type Entry = [id: string, fields: string[]];

/** The reply of a blocked XREAD, sent when it comes: the server goes on with other connections' commands meanwhile. */
export class DeferredReply {
  constructor(readonly reply: Promise<Reply>) {}
}

interface Stream {
  entries: Entry[];
  /** The id of the last entry ever added (kept when the entry is trimmed), as Redis keeps it. */
  lastID: [bigint, bigint];
  /** ms since the epoch when the key expires (PEXPIRE), or undefined. */
  expiresAtMs?: number;
}

/** A blocked XREAD, woken by the next XADD to one of its keys. */
interface Waiter {
  db: number;
  keys: string[];
  ids: string[];
  count: number;
  wake: (reply: Reply) => void;
  timer?: NodeJS.Timeout;
}

const parseID = (id: string): [bigint, bigint] => {
  const [ms, seq = '0'] = id.split('-');
  return [BigInt(ms), BigInt(seq)];
};
const compare = (a: [bigint, bigint], b: [bigint, bigint]) => (a[0] === b[0] ? (a[1] === b[1] ? 0 : a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1);
const format = ([ms, seq]: [bigint, bigint]) => `${ms}-${seq}`;
const ID = /^\d+(-\d+)?$/;

/**
 * Redis Streams for the in-memory server (the real-time gateway's fan-out):
 * XADD (with MAXLEN or MINID, `~` or `=`), XRANGE and XREVRANGE (exclusive
 * bounds with `(`, COUNT), XLEN, XTRIM, and XREAD with COUNT and BLOCK, whose
 * waiting never holds up other connections' commands. PEXPIRE, DEL, EXISTS
 * and TYPE answer for stream keys too. ioredis-mock's streams cannot block
 * without stopping the whole server, which runs one command at a time.
 */
export class StreamStore {
  private readonly streams = new Map<string, Stream>();
  private readonly waiters = new Set<Waiter>();

  /** Handles the command when it is a stream command or names a stream key; undefined otherwise (the key store answers). */
  execute(db: number, name: string, args: string[]): Reply | DeferredReply | undefined {
    switch (name) {
      case 'XADD':
        return this.add(db, args);
      case 'XRANGE':
        return this.range(db, args, false);
      case 'XREVRANGE':
        return this.range(db, args, true);
      case 'XLEN':
        return this.stream(db, args[0])?.entries.length ?? 0;
      case 'XTRIM': {
        const stream = this.stream(db, args[0]);
        return stream ? this.trim(stream, args.slice(1)) : 0;
      }
      case 'XREAD':
        return this.read(db, args);
      case 'PEXPIRE':
      case 'EXPIRE': {
        const stream = this.stream(db, args[0]);
        if (!stream) return undefined;
        stream.expiresAtMs = Date.now() + Number(args[1]) * (name === 'EXPIRE' ? 1000 : 1);
        return 1;
      }
      case 'TYPE':
        return this.stream(db, args[0]) ? 'stream' : undefined;
      case 'DEL':
      case 'EXISTS': {
        const streamKeys = args.filter((key) => this.stream(db, key));
        if (streamKeys.length === 0) return undefined;
        if (name === 'DEL') for (const key of streamKeys) this.streams.delete(`${db}:${key}`);
        // Keys of both kinds in one DEL or EXISTS: the platform never mixes them; refuse rather than answer half.
        return streamKeys.length === args.length ? streamKeys.length : new ErrorReply('ERR streams and other keys in one command');
      }
      default:
        return undefined;
    }
  }

  flush(db?: number): void {
    for (const key of [...this.streams.keys()]) if (db === undefined || key.startsWith(`${db}:`)) this.streams.delete(key);
  }

  private stream(db: number, key: string | undefined): Stream | undefined {
    if (key === undefined) return undefined;
    const stream = this.streams.get(`${db}:${key}`);
    if (stream?.expiresAtMs !== undefined && stream.expiresAtMs <= Date.now()) {
      this.streams.delete(`${db}:${key}`);
      return undefined;
    }
    return stream;
  }

  private add(db: number, [key, ...rest]: string[]): Reply {
    let index = 0;
    const trimming: string[] = [];
    while (['MAXLEN', 'MINID'].includes(rest[index]?.toUpperCase())) {
      const exact = rest[index + 1] === '~' || rest[index + 1] === '=';
      trimming.push(...rest.slice(index, index + (exact ? 3 : 2)));
      index += exact ? 3 : 2;
    }
    const requested = rest[index];
    const fields = rest.slice(index + 1);
    if (requested === undefined || fields.length === 0 || fields.length % 2 !== 0) return new ErrorReply("ERR wrong number of arguments for 'xadd' command");
    const stream = this.stream(db, key) ?? { entries: [], lastID: [0n, 0n] as [bigint, bigint] };
    let id: [bigint, bigint];
    if (requested === '*') {
      const now = BigInt(Date.now());
      id = now > stream.lastID[0] ? [now, 0n] : [stream.lastID[0], stream.lastID[1] + 1n];
    } else {
      if (!ID.test(requested)) return new ErrorReply('ERR Invalid stream ID specified as stream command argument');
      id = parseID(requested);
      if (compare(id, stream.lastID) <= 0) return new ErrorReply('ERR The ID specified in XADD is equal or smaller than the target stream top item');
    }
    stream.lastID = id;
    stream.entries.push([format(id), fields]);
    this.streams.set(`${db}:${key}`, stream);
    if (trimming.length > 0) this.trim(stream, trimming);
    this.wakeWaiters(db, key);
    return format(id);
  }

  /** MAXLEN or MINID, approximate (`~`) trimming done exactly: allowed, as Redis trims at least as far as asked only when exact. */
  private trim(stream: Stream, [strategy = '', ...rest]: string[]): number {
    const threshold = rest[0] === '~' || rest[0] === '=' ? rest[1] : rest[0];
    const before = stream.entries.length;
    if (strategy.toUpperCase() === 'MAXLEN') stream.entries.splice(0, Math.max(0, before - Number(threshold)));
    else if (strategy.toUpperCase() === 'MINID') {
      const min = parseID(threshold ?? '0');
      const keepFrom = stream.entries.findIndex(([id]) => compare(parseID(id), min) >= 0);
      stream.entries.splice(0, keepFrom < 0 ? before : keepFrom);
    }
    return before - stream.entries.length;
  }

  private range(db: number, [key, start = '-', end = '+', ...options]: string[], reverse: boolean): Reply {
    const [low, high] = reverse ? [end, start] : [start, end];
    const count = options[0]?.toUpperCase() === 'COUNT' ? Number(options[1]) : Infinity;
    const inRange = (id: string) => above(id, low) && below(id, high);
    const entries = (this.stream(db, key)?.entries ?? []).filter(([id]) => inRange(id));
    return (reverse ? entries.reverse() : entries).slice(0, count);
  }

  private read(db: number, args: string[]): Reply | DeferredReply {
    let count = Infinity;
    let block: number | undefined;
    let index = 0;
    for (; index < args.length; index += 2) {
      const option = args[index].toUpperCase();
      if (option === 'COUNT') count = Number(args[index + 1]);
      else if (option === 'BLOCK') block = Number(args[index + 1]);
      else break;
    }
    if (args[index]?.toUpperCase() !== 'STREAMS') return new ErrorReply('ERR syntax error');
    const named = args.slice(index + 1);
    const keys = named.slice(0, named.length / 2);
    // `$`: what is added from now on.
    const ids = named.slice(named.length / 2).map((id, at) => (id === '$' ? format(this.stream(db, keys[at])?.lastID ?? [0n, 0n]) : id));
    const ready = this.readNow(db, keys, ids, count);
    if (ready !== null || block === undefined) return ready;
    return new DeferredReply(
      new Promise((resolve) => {
        const waiter: Waiter = { db, keys, ids, count, wake: resolve };
        if (block > 0) {
          waiter.timer = setTimeout(() => {
            this.waiters.delete(waiter);
            resolve(null);
          }, block);
        }
        this.waiters.add(waiter);
      }),
    );
  }

  private readNow(db: number, keys: string[], ids: string[], count: number): Reply {
    const replies: Reply[] = [];
    keys.forEach((key, at) => {
      const after = parseID(ids[at]);
      const entries = (this.stream(db, key)?.entries ?? []).filter(([id]) => compare(parseID(id), after) > 0).slice(0, count);
      if (entries.length > 0) replies.push([key, entries]);
    });
    return replies.length > 0 ? replies : null;
  }

  private wakeWaiters(db: number, key: string): void {
    for (const waiter of this.waiters) {
      if (waiter.db !== db || !waiter.keys.includes(key)) continue;
      const reply = this.readNow(db, waiter.keys, waiter.ids, waiter.count);
      if (reply === null) continue;
      this.waiters.delete(waiter);
      clearTimeout(waiter.timer);
      waiter.wake(reply);
    }
  }
}

/** `id` is at or after `bound` (`-`, `(id` exclusive, `id`). */
function above(id: string, bound: string): boolean {
  if (bound === '-') return true;
  const exclusive = bound.startsWith('(');
  const order = compare(parseID(id), parseID(exclusive ? bound.slice(1) : bound));
  return exclusive ? order > 0 : order >= 0;
}

/** `id` is at or before `bound` (`+`, `(id` exclusive, `id`; an id without sequence covers all of its millisecond). */
function below(id: string, bound: string): boolean {
  if (bound === '+') return true;
  const exclusive = bound.startsWith('(');
  const raw = exclusive ? bound.slice(1) : bound;
  const limit: [bigint, bigint] = raw.includes('-') ? parseID(raw) : [BigInt(raw), BigInt('18446744073709551615')];
  const order = compare(parseID(id), limit);
  return exclusive ? order < 0 : order <= 0;
}
