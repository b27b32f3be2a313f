import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';

const MB = 1_000_000;
const TOO_LARGE = { statusCode: 413, error: 'PayloadTooLargeError', error_code: 1913, message: 'The request body is larger than this API accepts.' };

/** What a raw client read before the server closed the connection, and whether it was cut off while still writing. */
interface RawExchange {
  answer: string;
  cutOffWhileWriting: boolean;
}

/**
 * Sends headers announcing `declared` bytes of body, then writes body for as
 * long as the connection takes it (never more than `declared`), at once or,
 * with `trickle`, one small chunk at each tick of `trickle` milliseconds, and
 * reads whatever the server answers until it closes the connection.
 */
function sendEndlessBody(url: string, declared: number, trickle?: number): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunk = Buffer.alloc(trickle === undefined ? 64 * 1024 : 1024, 0x20);
    let written = 0;
    let answer = '';
    let writing = true;
    let ticks: NodeJS.Timeout | undefined;
    const write = () => {
      while (writing && written < declared) {
        written += chunk.length;
        if (!socket.write(chunk)) return;
      }
      writing = false;
    };
    socket.on('connect', () => {
      socket.write(`POST /v1/operators/email-verification HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
      if (trickle === undefined) write();
      else ticks = setInterval(() => socket.write(chunk), trickle);
    });
    if (trickle === undefined) socket.on('drain', write);
    socket.on('data', (data) => (answer += data.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(ticks);
      resolve({ answer, cutOffWhileWriting: writing });
    });
  });
}

/**
 * A body over HTTP_BODY_LIMIT_BYTES is answered 413 1913 while the client is
 * still sending it; the connection is closed in stages (docs/http-conventions.md,
 * Limits), so a client still writing reads the answer instead of a reset, and
 * one that keeps writing past the drain's bounds is cut off.
 */
describe('a body over the limit', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startPlatform();
  });
  afterAll(() => platform?.close());

  /**
   * Posts bodies of these sizes one after the other with Node's fetch, from a
   * process of its own (as a client is: the apps' event loop does not pace
   * it), and answers what each post read: status, Connection and body, or the
   * error that ended it.
   */
  const postFromAnotherProcess = async (url: string, sizes: number[]) => {
    const script = `
      const results = [];
      for (const bytes of ${JSON.stringify(sizes)}) {
        try {
          const answer = await fetch(${JSON.stringify(`${url}/v1/operators/email-verification`)}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(bytes, 0x20) });
          results.push({ status: answer.status, connection: answer.headers.get('connection'), body: await answer.json() });
        } catch (error) {
          results.push({ error: String(error.cause?.code ?? error.cause ?? error) });
        }
      }
      process.stdout.write(JSON.stringify(results));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    return JSON.parse(stdout) as unknown[];
  };

  for (const [app, urlOf] of [
    ['services-api', () => platform.servicesUrl],
    ['core-tenants', () => `${platform.coreUrl}`],
    ['plugins-helpdesk', () => platform.helpdeskUrl],
  ] as const) {
    it(`is answered 413 1913 to a fetch still writing it, every time (${app})`, async () => {
      const sizes = [...Array.from({ length: 5 }, () => 8 * MB), ...Array.from({ length: 20 }, () => 1.1 * MB)];
      const results = await postFromAnotherProcess(urlOf(), sizes);
      expect(results).toEqual(sizes.map(() => ({ status: 413, connection: 'close', body: { errors: [TOO_LARGE] } })));
    });
  }

  it('cuts off a client that keeps sending past the drain bound of bytes, after answering it', async () => {
    const exchange = await sendEndlessBody(platform.servicesUrl, 1_000 * MB);
    expect(exchange.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(exchange.answer).toContain('"error_code":1913');
    expect(exchange.cutOffWhileWriting).toBe(true);
  });

  it('cuts off a client that trickles its body past the drain bound of time, after answering it', async () => {
    const exchange = await sendEndlessBody(platform.servicesUrl, 1_000 * MB, 50);
    expect(exchange.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(exchange.answer).toContain('"error_code":1913');
    expect(exchange.cutOffWhileWriting).toBe(true);
  });
});
