import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import Redis from 'ioredis';
import { Client } from 'pg';

// pg's own conversion of a parameter to what it sends (text or bytes), so the record replays as sent; it has no typings.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- pg/lib/utils has no typings to import
const { prepareValue } = require('pg/lib/utils') as { prepareValue: (value: unknown) => unknown };

/**
 * Preloaded (node --require) into the apps of the bench's capture run, never
 * into the ones it measures: appends every PostgreSQL statement an app sends
 * while it serves an HTTP request or handles a transport message to
 * BENCH_SQL_CAPTURE_FILE, one JSON line each (text, parameters as pg sends
 * them, and which pooled connection ran it). Background work (timers, job
 * loops) runs outside those and is not recorded. The bench replays a
 * request's statements in the floor server (sql-floor-server.ts).
 */
export interface CapturedStatement {
  text: string;
  /** Parameters as pg put them on the wire: text, null, or bytes as `{ base64 }`. */
  values: (string | null | { base64: string })[];
  /** Which pooled connection ran it, so a transaction replays on one connection. */
  connection: number;
}

const file = process.env.BENCH_SQL_CAPTURE_FILE;
const serving = new AsyncLocalStorage<true>();
const connections = new WeakMap<object, number>();
let connectionCount = 0;

function wireValue(value: unknown): CapturedStatement['values'][number] {
  const prepared = prepareValue(value) as unknown;
  if (prepared === null || prepared === undefined) return null;
  if (Buffer.isBuffer(prepared)) return { base64: prepared.toString('base64') };
  return String(prepared);
}

if (file) {
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function capture(this: Client, config: unknown, values?: unknown, ...rest: unknown[]) {
    if (serving.getStore() && config) {
      const text = typeof config === 'string' ? config : (config as { text: string }).text;
      const parameters = (Array.isArray(values) ? values : (config as { values?: unknown[] }).values) ?? [];
      if (!connections.has(this)) connections.set(this, (connectionCount += 1));
      const record: CapturedStatement = { text, values: parameters.map(wireValue), connection: connections.get(this) as number };
      appendFileSync(file, `${JSON.stringify(record)}\n`);
    }
    return query.call(this, config, values, ...rest);
  } as typeof Client.prototype.query;

  const serverEmit = http.Server.prototype.emit as (this: http.Server, event: string, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function emit(this: http.Server, event: string, ...args: unknown[]) {
    return event === 'request' ? serving.run(true, () => serverEmit.call(this, event, ...args)) : serverEmit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;

  // The transport's subscriber hands each message over in these events.
  const redisEmit = Redis.prototype.emit as (this: Redis, event: string | symbol, ...args: unknown[]) => boolean;
  const transportEvents = new Set(['message', 'pmessage', 'messageBuffer', 'pmessageBuffer']);
  Redis.prototype.emit = function emit(this: Redis, event: string | symbol, ...args: unknown[]) {
    return typeof event === 'string' && transportEvents.has(event)
      ? serving.run(true, () => redisEmit.call(this, event, ...args))
      : redisEmit.call(this, event, ...args);
  } as typeof Redis.prototype.emit;
}
