import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { AddressInfo, createServer, Server, Socket } from 'node:net';
import RedisMock from 'ioredis-mock';
import RedisParser from 'redis-parser';
import { encodeReply, ErrorReply, Reply, StatusReply } from './resp';
import { DeferredReply, StreamStore } from './streams';

/** What one client connection has chosen: its logical database, its subscriptions, an open MULTI. */
interface Connection {
  /** CLIENT ID: unique for the server's life, as in Redis. */
  id: number;
  /** CLIENT SETNAME (ioredis's `connectionName`); empty until set. */
  name: string;
  socket: Socket;
  db: number;
  channels: Set<string>;
  patterns: Set<string>;
  queued?: string[][];
  /** Settles when this connection's previous command was answered: a blocked XREAD holds back only its own connection. */
  turn?: Promise<void>;
}

type StoreCommand = (...args: string[]) => Promise<Reply>;
type Store = InstanceType<typeof RedisMock>;

const errorReplyOf = (error: unknown) => new ErrorReply(`ERR ${error instanceof Error ? error.message : String(error)}`);

/**
 * Put before every script. ioredis-mock hands a script the array replies of
 * `redis.call` as JavaScript arrays in which a missing value is JavaScript's
 * null, a userdata that Lua finds true; in Redis it is `false` (so that
 * `if not reply[1]` works). This turns those nulls into `false` in place (the
 * array stays a JavaScript one, which the mock knows how to return).
 */
const LUA_REPLY_CONVERSION = `
local function __measurable(value)
  return (pcall(function() return #value end))
end
local function __redis_reply(value)
  if type(value) ~= 'userdata' then return value end
  if not __measurable(value) then return false end
  for index = 1, #value do
    local item = value[index]
    if type(item) == 'userdata' and not __measurable(item) then value[index] = false end
  end
  return value
end
local __redis_call, __redis_pcall = redis.call, redis.pcall
redis.call = function(...) return __redis_reply(__redis_call(...)) end
redis.pcall = function(...) return __redis_reply(__redis_pcall(...)) end
`;

const SERVER_INFO = ['# Server', 'redis_version:7.2.0', 'redis_mode:standalone', '# Persistence', 'loading:0', ''].join('\r\n');

/** A Redis glob (`*`, `?`) as a regular expression, for PSUBSCRIBE. */
function globToRegExp(glob: string): RegExp {
  const source = glob.replace(/[.+^${}()|\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.');
  return new RegExp(`^${source}$`);
}

/**
 * A Redis-compatible server on loopback for a machine that has no Redis: the
 * quick start's single-replica mode and the tests' fallback. The apps connect
 * to it with their ordinary ioredis clients and the ordinary Redis transport,
 * so nothing in them knows the difference.
 *
 * Keys, expiries and Lua scripts are ioredis-mock's (an in-memory emulation of
 * Redis, Lua through fengari). This module adds what a network server needs
 * and the mock has not: the RESP protocol (parsed by redis-parser, the parser
 * ioredis uses), SELECT, MULTI/EXEC, and publish/subscribe across connections.
 * No maintained npm package is a Redis server written in JavaScript; the ones
 * that provide `redis-server` download or build the C binary.
 *
 * Every command runs to completion before the next one starts, whichever
 * connection sent it, so a Lua script or a MULTI block is atomic, as in Redis.
 * Nothing is persisted: the data lives as long as the process. It is one
 * process's memory, so it serves one replica of each app, never a deployment.
 */
export class RedisCompatibleServer {
  private readonly connections = new Set<Connection>();
  private readonly stores = new Map<number, Store>();
  /** Scripts run by EVAL or SCRIPT LOAD, by SHA1, for EVALSHA: as Redis keeps them. */
  private readonly scripts = new Map<string, string>();
  private readonly streams = new StreamStore();
  private pending: Promise<unknown> = Promise.resolve();
  private lastConnectionID = 0;

  private constructor(private readonly server: Server) {}

  /** Listens on 127.0.0.1:`port` (0: any free port). */
  static async start(port = 0): Promise<RedisCompatibleServer> {
    const server = createServer();
    const instance = new RedisCompatibleServer(server);
    server.on('connection', (socket) => instance.accept(socket));
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    return instance;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The URL of logical database `db`. */
  url(db = 0): string {
    return `redis://127.0.0.1:${this.port}/${db}`;
  }

  async close(): Promise<void> {
    for (const connection of this.connections) connection.socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
    for (const store of this.stores.values()) store.disconnect();
  }

  private accept(socket: Socket): void {
    this.lastConnectionID += 1;
    const connection: Connection = { id: this.lastConnectionID, name: '', socket, db: 0, channels: new Set(), patterns: new Set() };
    this.connections.add(connection);
    socket.setNoDelay(true);
    const parser = new RedisParser({
      returnReply: (command) => this.enqueue(connection, (command as unknown[]).map(String)),
      returnError: () => socket.destroy(),
    });
    socket.on('data', (chunk) => parser.execute(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.connections.delete(connection));
  }

  /**
   * One command at a time across all connections: what makes scripts and
   * transactions atomic. A connection's commands are answered in order; a
   * blocked XREAD holds back its own connection's next commands, never the
   * others'.
   */
  private enqueue(connection: Connection, command: string[]): void {
    const write = (reply: string | undefined) => {
      if (reply !== undefined && !connection.socket.destroyed) connection.socket.write(reply);
    };
    connection.turn = (connection.turn ?? Promise.resolve()).then(
      () =>
        new Promise<void>((answered) => {
          this.pending = this.pending.then(async () => {
            const reply = await this.execute(connection, command).catch((error: unknown) => encodeReply(errorReplyOf(error)));
            if (reply instanceof DeferredReply) {
              void reply.reply.then((later) => {
                write(encodeReply(later));
                answered();
              });
              return;
            }
            write(reply);
            answered();
          });
        }),
    );
  }

  /** The encoded reply to one command, or undefined when the command writes its own replies. */
  private async execute(connection: Connection, [rawName = '', ...args]: string[]): Promise<string | DeferredReply | undefined> {
    const name = rawName.toUpperCase();
    if (name === 'XREAD' && !connection.queued) {
      const reply = this.streams.execute(connection.db, name, args);
      return reply instanceof DeferredReply ? reply : encodeReply(reply as Reply);
    }
    if (connection.queued && !['EXEC', 'DISCARD', 'MULTI'].includes(name)) {
      connection.queued.push([name, ...args]);
      return encodeReply(new StatusReply('QUEUED'));
    }
    switch (name) {
      case 'MULTI':
        connection.queued = [];
        return encodeReply(new StatusReply('OK'));
      case 'DISCARD':
        connection.queued = undefined;
        return encodeReply(new StatusReply('OK'));
      case 'EXEC': {
        const queued = connection.queued ?? [];
        connection.queued = undefined;
        const replies = [];
        for (const [queuedName, ...queuedArgs] of queued) replies.push(await this.run(connection, queuedName, queuedArgs).catch(errorReplyOf));
        return encodeReply(replies);
      }
      case 'SUBSCRIBE':
      case 'PSUBSCRIBE':
      case 'UNSUBSCRIBE':
      case 'PUNSUBSCRIBE':
        this.changeSubscriptions(connection, name, args);
        return undefined;
      case 'QUIT':
        connection.socket.end(encodeReply(new StatusReply('OK')));
        return undefined;
      default:
        return encodeReply(await this.run(connection, name, args));
    }
  }

  /**
   * The CLIENT subcommands the apps and the tests use: ID, SETNAME, GETNAME,
   * LIST (with TYPE pubsub|normal; the fields Redis puts first) and KILL ID,
   * which closes a connection as Redis does, so a test can cut one.
   */
  private client(connection: Connection, [subcommand = '', ...args]: string[]): Reply {
    switch (subcommand.toUpperCase()) {
      case 'ID':
        return connection.id;
      case 'SETNAME':
        connection.name = args[0] ?? '';
        return new StatusReply('OK');
      case 'GETNAME':
        return connection.name || null;
      case 'LIST': {
        const type = args[0]?.toUpperCase() === 'TYPE' ? args[1]?.toLowerCase() : undefined;
        const listed = [...this.connections].filter((each) => {
          const subscribed = each.channels.size + each.patterns.size > 0;
          return type === undefined || (type === 'pubsub' ? subscribed : type === 'normal' ? !subscribed : false);
        });
        return listed
          .map((each) => `id=${each.id} addr=${each.socket.remoteAddress}:${each.socket.remotePort} name=${each.name} db=${each.db} sub=${each.channels.size} psub=${each.patterns.size}\n`)
          .join('');
      }
      case 'KILL': {
        if (args[0]?.toUpperCase() !== 'ID') return new ErrorReply('ERR syntax error');
        const target = [...this.connections].find((each) => each.id === Number(args[1]));
        target?.socket.destroy();
        return target ? 1 : 0;
      }
      default:
        return new StatusReply('OK');
    }
  }

  private async run(connection: Connection, name: string, args: string[]): Promise<Reply> {
    switch (name) {
      case 'PING':
        return args.length ? args[0] : new StatusReply('PONG');
      case 'ECHO':
        return args[0];
      case 'SELECT':
        connection.db = Number(args[0]);
        return new StatusReply('OK');
      case 'CLIENT':
        return this.client(connection, args);
      case 'INFO':
        return SERVER_INFO;
      case 'WATCH':
      case 'UNWATCH':
        // Commands never interleave (see enqueue), so a watched key cannot change under a transaction.
        return new StatusReply('OK');
      case 'FLUSHALL':
        for (const store of this.stores.values()) await store.flushdb();
        this.streams.flush();
        return new StatusReply('OK');
      case 'FLUSHDB':
        this.streams.flush(connection.db);
        return this.storeCommand(connection, 'flushdb', args);
      case 'PUBLISH':
        return this.publish(args[0], args[1]);
      case 'PUBSUB':
        return this.pubsub(args);
      case 'EVAL':
        this.keepScript(args[0]);
        return this.evaluate(connection, args[0], args.slice(1));
      case 'EVALSHA': {
        const script = this.scripts.get(args[0]?.toLowerCase());
        return script === undefined ? new ErrorReply('NOSCRIPT No matching script. Please use EVAL.') : this.evaluate(connection, script, args.slice(1));
      }
      case 'SCRIPT':
        if (args[0]?.toUpperCase() === 'LOAD') return this.keepScript(args[1]);
        if (args[0]?.toUpperCase() === 'FLUSH') {
          this.scripts.clear();
          return new StatusReply('OK');
        }
        return new ErrorReply(`ERR unknown subcommand '${args[0]}'`);
      default: {
        const streamed = this.streams.execute(connection.db, name, args);
        // A blocking read inside MULTI answers at once, as in Redis.
        if (streamed instanceof DeferredReply) return null;
        return streamed !== undefined ? streamed : this.storeCommand(connection, name.toLowerCase(), args);
      }
    }
  }

  /** Keeps a script for EVALSHA, as Redis does with every script it runs; answers its SHA1. */
  private keepScript(script: string): string {
    const sha = createHash('sha1').update(script).digest('hex');
    this.scripts.set(sha, script);
    return sha;
  }

  private evaluate(connection: Connection, script: string, args: string[]): Promise<Reply> | ErrorReply {
    return this.storeCommand(connection, 'eval', [`${LUA_REPLY_CONVERSION}\n${script}`, ...args]);
  }

  private storeCommand(connection: Connection, name: string, args: string[]): Promise<Reply> | ErrorReply {
    const store = this.store(connection.db) as unknown as Record<string, StoreCommand | undefined>;
    const command = store[name];
    if (typeof command !== 'function') return new ErrorReply(`ERR unknown command '${name.toUpperCase()}'`);
    return command.apply(store, args);
  }

  private store(db: number): Store {
    let store = this.stores.get(db);
    if (!store) {
      // ioredis-mock shares data between instances of the same port and db: this server's port keeps them apart.
      store = new RedisMock({ port: this.port, db });
      this.stores.set(db, store);
    }
    return store;
  }

  private changeSubscriptions(connection: Connection, name: string, args: string[]): void {
    const patterns = name.startsWith('P');
    const set = patterns ? connection.patterns : connection.channels;
    const kind = name.toLowerCase();
    const subscribing = !name.includes('UNSUB');
    const targets = subscribing || args.length ? args : [...set];
    const count = () => connection.channels.size + connection.patterns.size;
    if (targets.length === 0) connection.socket.write(encodeReply([kind, null, count()]));
    for (const target of targets) {
      if (subscribing) set.add(target);
      else set.delete(target);
      connection.socket.write(encodeReply([kind, target, count()]));
    }
  }

  /**
   * PUBSUB NUMSUB, CHANNELS and NUMPAT, counted over every connection as
   * Redis counts them (a test waits on NUMSUB for a listener to be there).
   */
  private pubsub([subcommand = '', ...args]: string[]): Reply {
    const connections = [...this.connections];
    switch (subcommand.toUpperCase()) {
      case 'NUMSUB':
        return args.flatMap((channel) => [channel, connections.filter((each) => each.channels.has(channel)).length]);
      case 'CHANNELS': {
        const matching = args[0] === undefined ? undefined : globToRegExp(args[0]);
        return [...new Set(connections.flatMap((each) => [...each.channels]))].filter((channel) => !matching || matching.test(channel));
      }
      case 'NUMPAT':
        return connections.reduce((sum, each) => sum + each.patterns.size, 0);
      default:
        return new ErrorReply(`ERR unknown subcommand '${subcommand}'`);
    }
  }

  private publish(channel: string, message: string): number {
    let receivers = 0;
    for (const connection of this.connections) {
      if (connection.channels.has(channel)) {
        connection.socket.write(encodeReply(['message', channel, message]));
        receivers += 1;
      }
      for (const pattern of connection.patterns) {
        if (!globToRegExp(pattern).test(channel)) continue;
        connection.socket.write(encodeReply(['pmessage', pattern, channel, message]));
        receivers += 1;
      }
    }
    return receivers;
  }
}
