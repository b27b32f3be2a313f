import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { AppLogger } from './app-logger';
import { accessLogFilter, loggerOptions, logRequests, requestIdOf } from './request-logging';

/** An AppLogger writing to memory, and the JSON lines it wrote. */
function capturedLogger(): { logger: AppLogger; lines: () => Record<string, any>[]; raw: () => string[] } {
  const written: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return {
    logger: new AppLogger(pino(loggerOptions({ level: 'info', app: 'test-app' }), destination)),
    lines: () => written.map((line) => JSON.parse(line)),
    raw: () => [...written],
  };
}

/**
 * Serves one request through a Fastify server logging as the apps do; the
 * route logs `logged` (if given) through AppLogger while it is served.
 * Returns the JSON lines written.
 */
async function logLinesOf(path: string, headers: Record<string, string>, status: number, logged?: (logger: AppLogger) => void): Promise<Record<string, any>[]> {
  const { logger, lines } = capturedLogger();
  const fastify = Fastify({ genReqId: requestIdOf });
  logRequests(fastify, logger.root);
  fastify.all('/*', async (_request, reply) => {
    // Awaited first, as a handler reading the database would: the line below is logged in a later turn.
    await new Promise((resolve) => setImmediate(resolve));
    logged?.(logger);
    return reply.status(status).send({});
  });
  try {
    await fastify.inject({ url: path, headers });
  } finally {
    await fastify.close();
  }
  return lines();
}

const secret = 'eyJhbGciOiJFZERTQSJ9.c2VjcmV0LXBheWxvYWQ.c2lnbmF0dXJl';
const credentials = { authorization: `Bearer ${secret}`, cookie: `session=${secret}`, 'x-hub-signature-256': `sha256=${secret}` };

describe('request logs', () => {
  it('say the request id, method, path, status and duration, and nothing of the credentials', async () => {
    const [line, ...others] = await logLinesOf('/v1/tenants/abc/notifications?page=2', { ...credentials, 'x-request-id': 'req-42' }, 403);
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

  it('redact the bound values and key detail of a failed query, on the error and on the driver error inside it', () => {
    const { logger, lines } = capturedLogger();
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint "plugin_connections_token_hash_key"'), {
      detail: `Key (token_hash)=(${secret}) already exists.`,
      parameters: [secret],
    });
    const failed = Object.assign(new Error(driverError.message), { query: 'INSERT INTO plugin_connections (token_hash) VALUES ($1)', parameters: [secret], detail: driverError.detail, driverError });
    logger.root.error({ err: failed }, 'query failed');
    logger.root.error({ err: new Error('wrapped', { cause: failed }) }, 'query failed');
    const written = lines();
    expect(written).toHaveLength(2);
    expect(JSON.stringify(written)).not.toContain(secret);
    expect(written[0].err).toMatchObject({ query: 'INSERT INTO plugin_connections (token_hash) VALUES ($1)', parameters: '[redacted]', detail: '[redacted]' });
  });

  it('redact the webhook verify token (and any secret-named query parameter) from the URL, on every line', async () => {
    const verifyToken = 'subscribe-token-0123456789';
    const url = `/v1/webhooks/whatsapp/templates?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=1158201444&password=${secret}`;
    const lines = await logLinesOf(url, {}, 200, (logger) => logger.log('handshake answered', 'Webhook'));
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line.req.url).toBe('/v1/webhooks/whatsapp/templates?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=1158201444&password=[redacted]');
      expect(JSON.stringify(line)).not.toContain(verifyToken);
      expect(JSON.stringify(line)).not.toContain(secret);
    }
  });

  it('say a 5xx request errored', async () => {
    const [line] = await logLinesOf('/v1/tenants', { 'x-request-id': 'req-43' }, 503);
    expect(line).toMatchObject({ req: { id: 'req-43' }, res: { statusCode: 503 }, err: { message: 'failed with status code 503' }, msg: 'request errored' });
  });

  it('tie a line logged while the request is served to its id, with the logging class as context', async () => {
    const lines = await logLinesOf('/v1/tenants', { ...credentials, 'x-request-id': 'req-44' }, 200, (logger) => logger.log({ reason: 'quota' }, 'mail not sent', 'SignUpMailSender'));
    expect(lines.map((line) => line.msg)).toEqual(['mail not sent', 'request completed']);
    expect(lines[0]).toMatchObject({ app: 'test-app', req: { id: 'req-44', method: 'GET', url: '/v1/tenants' }, context: 'SignUpMailSender', reason: 'quota' });
    expect(JSON.stringify(lines)).not.toContain(secret);
  });

  it('leave out the health probes', async () => {
    expect(await logLinesOf('/health/live', {}, 200)).toEqual([]);
  });
});

describe('completion lines', () => {
  it('are the bytes pino writes for the same fields, whatever the id and path hold', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(1_795_000_000_123);
    try {
      const requests = [
        { path: '/v1/tenants/abc/notifications?page=2', id: 'req-42', status: 200 },
        { path: '/v1/tenants?name=%22quoted%22&x=\\back', id: 'a:b.c_d-e', status: 206 },
        { path: `/v1/webhooks/whatsapp/templates?hub.verify_token=secret-token&password=${secret}`, id: 'req-45', status: 404 },
        { path: '/v1/contatos/sessões?q=ação', id: 'req-46', status: 429 },
      ];
      for (const { path, id, status } of requests) {
        const { logger, raw } = capturedLogger();
        const fastify = Fastify({ genReqId: requestIdOf });
        logRequests(fastify, logger.root);
        fastify.all('/*', async (_request, reply) => reply.status(status).send({}));
        const answer = await fastify.inject({ url: path, headers: { 'x-request-id': id } });
        await fastify.close();
        const [written] = raw();
        const { req, responseTime } = JSON.parse(written);
        expect(req).toMatchObject({ id, method: 'GET' });
        // pino's own line for the same request: the serializers and the logger the completion line comes from.
        const reference = capturedLogger();
        reference.logger.root.child({}, { redact: [] }).info({ req: { id, method: 'GET', url: answer.raw.req.url }, res: { statusCode: status }, responseTime }, 'request completed');
        expect(written).toBe(reference.raw()[0]);
      }
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe('the access-log filter', () => {
  const slowMs = 1000;
  it('keeps every line with ACCESS_LOG=all', () => {
    const logged = accessLogFilter({ mode: { kind: 'all' }, slowMs });
    expect([logged(200, 1), logged(404, 1), logged(500, 1)]).toEqual([true, true, true]);
  });

  it('keeps errors (4xx and 5xx) and slow requests in every other mode, and the rest by the mode', () => {
    for (const [mode, fast2xx] of [
      [{ kind: 'errors' }, false],
      [{ kind: 'sample', fraction: 0 }, false],
      [{ kind: 'sample', fraction: 1 }, true],
    ] as const) {
      const logged = accessLogFilter({ mode, slowMs });
      expect([logged(200, 999), logged(204, 5), logged(399, 0)], JSON.stringify(mode)).toEqual([fast2xx, fast2xx, fast2xx]);
      expect([logged(400, 1), logged(429, 1), logged(500, 1), logged(503, 1), logged(200, 1000), logged(206, 5000)], JSON.stringify(mode)).toEqual([true, true, true, true, true, true]);
    }
  });
});

describe('lines logged outside a request', () => {
  it('carry no request', () => {
    const { logger, lines } = capturedLogger();
    logger.error('Redis connection lost', 'RedisModule');
    const [line] = lines();
    expect(line).toMatchObject({ app: 'test-app', context: 'RedisModule', msg: 'Redis connection lost', level: 50 });
    expect(line.req).toBeUndefined();
  });
});
