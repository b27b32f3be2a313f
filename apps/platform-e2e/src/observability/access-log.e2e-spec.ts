import { randomUUID } from 'node:crypto';
import { MetricsListener } from '@platform/observability';
import { request } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { scrape } from '../support/metrics';
import { startPlatform, TestPlatform } from '../support/platform';
import { captureStdout, CapturedStdout } from '../support/stdout-lines';

const REQUESTS = 'platform_http_request_duration_seconds';

/**
 * Which requests get a `request completed` line (ACCESS_LOG,
 * ACCESS_LOG_SLOW_MS; docs/observability.md, Access log), read from what
 * core-tenants writes to stdout while it serves real HTTP requests. A request
 * that must not be logged is followed by one that must (a 401): lines are
 * written in order, so once the later line is there, the earlier one would be
 * too.
 */
describe('access log', () => {
  let stdout: CapturedStdout;
  beforeAll(() => {
    stdout = captureStdout();
  });
  afterAll(() => stdout.restore());

  /** core-tenants logging at info with these access-log settings, and an owner's bearer header. */
  function platformWith(env: Record<string, string>) {
    const started = { platform: undefined as unknown as TestPlatform, bearer: {} as Record<string, string> };
    beforeAll(async () => {
      started.platform = await startPlatform({ apps: ['core-tenants'], env: { LOG_LEVEL: 'info', ...env } });
      const tenantID = await started.platform.fixtures.tenant();
      const owner = await started.platform.fixtures.operator();
      await started.platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
      started.bearer = { authorization: `Bearer ${await started.platform.tokenFor(owner.operatorID)}` };
    });
    afterAll(() => started.platform?.close());
    return started;
  }

  /** Sends GET `path` under a request id of its own; returns the id and the status. */
  async function send(platform: TestPlatform, path: string, headers: Record<string, string> = {}): Promise<{ id: string; status: number }> {
    const id = `access-log-${randomUUID()}`;
    const { status } = await request(platform.coreUrl, path, { headers: { ...headers, 'x-request-id': id } });
    return { id, status };
  }

  const completionOf = (id: string) => stdout.lines().filter((line) => line.req?.id === id && line.msg === 'request completed');

  /** Waits for the line of a request that is logged (a 401), after which every earlier line is written. */
  async function barrier(platform: TestPlatform): Promise<void> {
    const refused = await send(platform, '/tenants');
    expect(refused.status).toBe(401);
    await eventually(() => expect(completionOf(refused.id)).toHaveLength(1));
  }

  describe('ACCESS_LOG=sample:0 (errors and slow requests only)', () => {
    const started = platformWith({ ACCESS_LOG: 'sample:0', ACCESS_LOG_SLOW_MS: '600000' });

    it('writes no line for a success, one for each 4xx, and the metrics still count every request', async () => {
      const { platform, bearer } = started;
      const metricsUrl = await platform.apps['core-tenants']!.get(MetricsListener).listen(0, '127.0.0.1');
      const ok = await send(platform, '/tenants', bearer);
      expect(ok.status).toBe(200);
      const stray = await send(platform, `/no-such-thing/${randomUUID()}`, bearer);
      expect(stray.status).toBe(404);
      await barrier(platform);

      expect(completionOf(ok.id)).toEqual([]);
      expect(completionOf(stray.id)).toEqual([expect.objectContaining({ app: 'core-tenants', req: expect.objectContaining({ method: 'GET' }), res: { statusCode: 404 } })]);
      const metrics = await scrape(metricsUrl);
      expect(metrics.value(`${REQUESTS}_count`, { app: 'core-tenants', method: 'GET', route: '/tenants', status: '200' })).toBe(1);
      expect(metrics.value(`${REQUESTS}_count`, { app: 'core-tenants', method: 'GET', route: '/tenants', status: '401' })).toBe(1);
    });
  });

  describe('ACCESS_LOG=sample:1', () => {
    const started = platformWith({ ACCESS_LOG: 'sample:1', ACCESS_LOG_SLOW_MS: '600000' });

    it('writes a line for every success', async () => {
      const { platform, bearer } = started;
      const answers = [await send(platform, '/tenants', bearer), await send(platform, '/tenants', bearer)];
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      await eventually(() => {
        for (const { id } of answers) {
          expect(completionOf(id)).toEqual([expect.objectContaining({ req: { id, method: 'GET', url: '/tenants' }, res: { statusCode: 200 }, responseTime: expect.any(Number) })]);
        }
      });
    });
  });

  describe('ACCESS_LOG=errors with ACCESS_LOG_SLOW_MS=0 (every request counts as slow)', () => {
    const started = platformWith({ ACCESS_LOG: 'errors', ACCESS_LOG_SLOW_MS: '0' });

    it('writes a line for a success that took at least the slow threshold', async () => {
      const { platform, bearer } = started;
      const ok = await send(platform, '/tenants', bearer);
      expect(ok.status).toBe(200);
      await eventually(() => expect(completionOf(ok.id)).toEqual([expect.objectContaining({ res: { statusCode: 200 } })]));
    });
  });

  describe('ACCESS_LOG=errors', () => {
    const started = platformWith({ ACCESS_LOG: 'errors', ACCESS_LOG_SLOW_MS: '600000' });

    it('writes no line for a success and one for a refusal', async () => {
      const { platform, bearer } = started;
      const ok = await send(platform, '/tenants', bearer);
      expect(ok.status).toBe(200);
      await barrier(platform);
      expect(completionOf(ok.id)).toEqual([]);
    });
  });

  describe('ACCESS_LOG unset outside production', () => {
    const started = platformWith({});

    it('writes a line for every request', async () => {
      const { platform, bearer } = started;
      const ok = await send(platform, '/tenants', bearer);
      expect(ok.status).toBe(200);
      await eventually(() => expect(completionOf(ok.id)).toHaveLength(1));
    });
  });
});
