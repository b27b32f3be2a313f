import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pinoHttp } from 'pino-http';
import { describe, expect, it } from 'vitest';
import { requestLoggingOptions } from './request-logging';

/** Serves one request through the request logger and returns the JSON lines it wrote. */
async function logLinesOf(path: string, headers: Record<string, string>, status: number): Promise<Record<string, any>[]> {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pinoHttp(requestLoggingOptions({ level: 'info', app: 'test-app' }), destination);
  const server = createServer((req, res) => {
    logger(req, res);
    res.statusCode = status;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, { headers });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return lines.map((line) => JSON.parse(line));
}

describe('request logs', () => {
  it('say the request id, method, path, status and duration, and nothing of the credentials', async () => {
    const secret = 'eyJhbGciOiJFZERTQSJ9.c2VjcmV0LXBheWxvYWQ.c2lnbmF0dXJl';
    const [line, ...others] = await logLinesOf(
      '/v1/tenants/abc/notifications?page=2',
      { authorization: `Bearer ${secret}`, cookie: `session=${secret}`, 'x-hub-signature-256': `sha256=${secret}`, 'x-request-id': 'req-42' },
      403,
    );
    expect(others).toEqual([]);
    expect(line).toMatchObject({
      app: 'test-app',
      req: { id: 'req-42', method: 'GET', url: '/v1/tenants/abc/notifications?page=2' },
      res: { statusCode: 403 },
      msg: 'request completed',
    });
    expect(line.responseTime).toEqual(expect.any(Number));
    expect(JSON.stringify(line)).not.toContain(secret);
  });

  it('leave out the health probes', async () => {
    expect(await logLinesOf('/health/live', {}, 200)).toEqual([]);
  });
});
