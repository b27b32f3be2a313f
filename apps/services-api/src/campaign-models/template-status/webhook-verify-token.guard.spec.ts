import { AppException } from '@platform/errors';
import { httpContext } from '@platform/testing-doubles';
import { describe, expect, it } from 'vitest';
import { WebhookVerifyTokenGuard } from './webhook-verify-token.guard';

const TOKEN = 'subscribe-token-0123456789';

async function verdict(guard: WebhookVerifyTokenGuard, query: Record<string, string>) {
  try {
    return await guard.canActivate(httpContext({ query }));
  } catch (error) {
    return error instanceof AppException ? { status: error.status, code: error.code, fields: error.fields } : error;
  }
}

const handshake = (token: string) => ({ 'hub.mode': 'subscribe', 'hub.verify_token': token, 'hub.challenge': '1158201444' });

describe('WebhookVerifyTokenGuard (template status webhook handshake)', () => {
  it('lets the handshake with the verify token through', async () => {
    expect(await verdict(new WebhookVerifyTokenGuard(TOKEN), handshake(TOKEN))).toBe(true);
  });

  it('refuses with 403 1004 another token, and every token when none is configured', async () => {
    expect(await verdict(new WebhookVerifyTokenGuard(TOKEN), handshake('subscribe-token-wrong'))).toMatchObject({ status: 403, code: 1004 });
    expect(await verdict(new WebhookVerifyTokenGuard(TOKEN), handshake(`${TOKEN}0`))).toMatchObject({ status: 403, code: 1004 });
    expect(await verdict(new WebhookVerifyTokenGuard(undefined), handshake(TOKEN))).toMatchObject({ status: 403, code: 1004 });
  });

  it('answers a malformed handshake 400 1002 naming its fields before comparing the token', async () => {
    const answer = await verdict(new WebhookVerifyTokenGuard(TOKEN), { 'hub.mode': 'unsubscribe', 'hub.verify_token': 'wrong', 'hub.challenge': '1' });
    expect(answer).toMatchObject({ status: 400, code: 1002, fields: [{ field: 'hub.mode', received: 'unsubscribe', allowed: 'one of: subscribe' }] });
  });
});
