/** The part of redis-parser (the RESP parser ioredis itself uses) this library needs; it ships no types. */
declare module 'redis-parser' {
  interface ParserOptions {
    returnReply: (reply: unknown) => void;
    returnError: (error: Error) => void;
    returnFatalError?: (error: Error) => void;
    returnBuffers?: boolean;
  }
  export default class RedisParser {
    constructor(options: ParserOptions);
    execute(buffer: Buffer): void;
  }
}
