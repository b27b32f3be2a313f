import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { RawBodyRequest } from '@nestjs/common';
import { AppException } from '@platform/errors';
import type { FastifyRequest } from 'fastify';
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Injection token of the secret the provider signs webhooks with (none: every delivery is refused). */
export const WEBHOOK_APP_SECRET = Symbol('WEBHOOK_APP_SECRET');

/**
 * The provider signs each webhook delivery with its app secret:
 * `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`.
 */
export function signatureMatches(appSecret: string | undefined, rawBody: Buffer | undefined, header: unknown): boolean {
  if (!appSecret || !rawBody || typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const presented = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/**
 * The status webhook's credential: a delivery not signed with the app secret
 * is 401 1003 and nothing of it is read (docs/campaign-models.md, Status
 * webhook). Without a secret configured, every delivery is refused.
 */
@Injectable()
export class WebhookSignatureGuard implements CanActivate {
  constructor(@Inject(WEBHOOK_APP_SECRET) private readonly appSecret: string | undefined) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RawBodyRequest<FastifyRequest>>();
    if (!signatureMatches(this.appSecret, request.rawBody, request.headers['x-hub-signature-256'])) throw new AppException('Unauthorized');
    return true;
  }
}
