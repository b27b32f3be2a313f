import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { withoutDriverClient } from './jobs.module';

describe('withoutDriverClient', () => {
  it("logs a pool error with its message, code and stack, and without the driver client pg-pool attached", () => {
    const error = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', client: { connectionParameters: { password: 'secret' }, _queryQueue: [] } });
    const lines: string[] = [];
    const logger = pino({ base: undefined }, { write: (line: string) => lines.push(line) });

    logger.error({ err: withoutDriverClient(error) }, 'pg-boss error');

    const logged = JSON.parse(lines[0]) as { err: Record<string, unknown> };
    expect(logged.err).toMatchObject({ type: 'Error', message: 'terminating connection due to administrator command', code: '57P01' });
    expect(logged.err.stack).toContain('terminating connection');
    expect(logged.err).not.toHaveProperty('client');
    expect(lines[0]).not.toContain('secret');
    expect(error.client).toBeDefined();
  });

  it('passes any other value through unchanged', () => {
    const plain = new Error('boom');
    expect(withoutDriverClient(plain)).toBe(plain);
    expect(withoutDriverClient('text')).toBe('text');
  });
});
