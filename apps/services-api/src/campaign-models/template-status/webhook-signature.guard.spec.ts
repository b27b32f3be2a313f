import { AppException } from '@platform/errors';
import { signWebhookBody } from '@platform/testing';
import { httpContext } from '@platform/testing-doubles';
import { describe, expect, it } from 'vitest';
import { WebhookSignatureGuard } from './webhook-signature.guard';

const SECRET = 'app-secret';
const body = JSON.stringify({ entry: [{ id: 'waba-1', changes: [] }] });

const verdict = (guard: WebhookSignatureGuard, request: { rawBody?: Buffer; headers: Record<string, unknown> }) => {
  try {
    return guard.canActivate(httpContext(request));
  } catch (error) {
    return error instanceof AppException ? { status: error.status, code: error.code } : error;
  }
};

describe('WebhookSignatureGuard (template status webhook)', () => {
  it('lets a delivery signed with the app secret through', () => {
    const guard = new WebhookSignatureGuard(SECRET);
    expect(verdict(guard, { rawBody: Buffer.from(body), headers: { 'x-hub-signature-256': signWebhookBody(SECRET, body) } })).toBe(true);
  });

  it('refuses with 401 1003 a delivery signed otherwise, unsigned, or of another body', () => {
    const guard = new WebhookSignatureGuard(SECRET);
    for (const headers of [
      { 'x-hub-signature-256': signWebhookBody('another-secret', body) },
      { 'x-hub-signature-256': 'sha256=00' },
      { 'x-hub-signature-256': signWebhookBody(SECRET, body).slice('sha256='.length) },
      { 'x-hub-signature-256': ['a', 'b'] },
      {},
    ]) {
      expect(verdict(guard, { rawBody: Buffer.from(body), headers })).toEqual({ status: 401, code: 1003 });
    }
    expect(verdict(guard, { rawBody: Buffer.from(`${body} `), headers: { 'x-hub-signature-256': signWebhookBody(SECRET, body) } })).toEqual({
      status: 401,
      code: 1003,
    });
    expect(verdict(guard, { headers: { 'x-hub-signature-256': signWebhookBody(SECRET, body) } })).toEqual({ status: 401, code: 1003 });
  });

  it('refuses every delivery when no app secret is configured', () => {
    const guard = new WebhookSignatureGuard(undefined);
    expect(verdict(guard, { rawBody: Buffer.from(body), headers: { 'x-hub-signature-256': signWebhookBody('', body) } })).toEqual({ status: 401, code: 1003 });
  });
});
