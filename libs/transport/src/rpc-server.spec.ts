import { Writable } from 'node:stream';
import { Logger } from '@nestjs/common';
import { AppLogger, loggerOptions } from '@platform/observability';
import { rpcHost } from '@platform/testing-doubles';
import pino from 'pino';
import { firstValueFrom } from 'rxjs';
import { QueryFailedError } from 'typeorm';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcErrorFilter } from './rpc-server';

/** Nest's Logger writing through the apps' pino options to memory; the lines written. */
function captureLogs(): () => string {
  const written: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString('utf8'));
      done();
    },
  });
  Logger.overrideLogger(new AppLogger(pino(loggerOptions({ level: 'info', app: 'core-tenants' }), destination)));
  return () => written.join('');
}


describe('the transport error filter', () => {
  afterEach(() => Logger.overrideLogger(false));

  it('logs an unexpected failure with the payload, its passwords, hashes and tokens redacted, and answers 5999', async () => {
    const logged = captureLogs();
    const passwordHash = '$2b$10$abcdefghijklmnopqrstuvCIPHERTEXTxxxxxxxxxxxxxxxxxxx';
    const tokenHash = 'c2VjcmV0LXRva2VuLWhhc2gtMDEyMzQ1Njc4OQ';
    const payload = {
      operatorEmail: 'ana@acme-support.com.br',
      passwordHash,
      invitation: { tokenHash, token: 'plain-token-value', password: 'plain-password-value' },
      items: [{ token_hash: tokenHash }],
    };
    const failure = new QueryFailedError('INSERT INTO operators (email, password_hash) VALUES ($1, $2)', [payload.operatorEmail, passwordHash], new Error('boom'));

    const answer = await firstValueFrom(new RpcErrorFilter().catch(failure, rpcHost(payload))).catch((error: unknown) => error);

    expect(answer).toEqual({ error_code: 5999 });
    const text = logged();
    expect(text).toContain('unexpected exception in message handler');
    expect(text).toContain('ana@acme-support.com.br');
    for (const secret of [passwordHash, tokenHash, 'plain-token-value', 'plain-password-value']) expect(text).not.toContain(secret);
    expect(payload.passwordHash).toBe(passwordHash);
  });
});
