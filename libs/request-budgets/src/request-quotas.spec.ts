import { AppException } from '@platform/errors';
import type { PlatformMetrics } from '@platform/observability';
import { fake } from '@platform/testing-doubles';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { LeasedWindows } from './leased-windows';
import { RequestQuotas } from './request-quotas';

const TENANT_ID = '6f1c1b4e-8a55-4c55-9a0e-2f4a4b2d7c11';

/** A reply that records the headers set on it. */
function replyRecorder(): { reply: FastifyReply; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  const reply: FastifyReply = fake<FastifyReply>({
    header: (name: string, value: string) => {
      headers[name] = value;
      return reply;
    },
    statusCode: 200,
  });
  return { reply, headers };
}

const request = fake<FastifyRequest>({ params: { tenantID: TENANT_ID } });
const operator = { kind: 'operator', operatorID: 'a7d1a3c8-0e5c-4f43-9d8e-8c1d2f7e9b10' } as const;
const metrics = fake<PlatformMetrics>({ refused: () => undefined });
const settings = { app: 'spec', principal: { limit: 2, windowSeconds: 60 }, tenant: { limit: 5, windowSeconds: 60 } };

describe('RequestQuotas', () => {
  it('serves without budgets while Redis is away (fails open), with no budget headers', async () => {
    const unavailable = fake<LeasedWindows>({ charge: () => Promise.reject(new Error('Connection is closed.')) });
    const { reply, headers } = replyRecorder();
    await expect(new RequestQuotas(settings, unavailable, metrics).charge(request, reply, operator)).resolves.toBeUndefined();
    expect(headers).toEqual({});
  });

  it('answers 429 1071 with the seconds until the refusing window ends', async () => {
    const exhausted = fake<LeasedWindows>({ charge: async () => [{ remaining: 0, resetMs: 16_200, allowed: false }] });
    const { reply, headers } = replyRecorder();
    const refusal = await new RequestQuotas(settings, exhausted, metrics).charge(request, reply, operator).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppException);
    expect(refusal).toMatchObject({ key: 'TooManyRequests', retryAfterSeconds: 17 });
    // The tenant of the path is charged only once the access check admits the caller: never, here.
    expect(headers).toEqual({ 'ratelimit-policy': '"principal";q=2;w=60', ratelimit: '"principal";r=0;t=17' });
  });
});
