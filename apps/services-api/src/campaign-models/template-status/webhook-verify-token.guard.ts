import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { AppException } from '@platform/errors';
import { RequestValidationPipe } from '@platform/http-common';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { WebhookSubscriptionQuery } from './template-status-webhook.dto';

/** Injection token of the token the provider echoes when subscribing the webhook (none: every subscription is refused). */
export const WEBHOOK_VERIFY_TOKEN = Symbol('WEBHOOK_VERIFY_TOKEN');

function sameToken(expected: string | undefined, presented: string): boolean {
  if (!expected) return false;
  const [a, b] = [Buffer.from(expected), Buffer.from(presented)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The subscription handshake's credential: `hub.verify_token` must be the
 * configured verify token (compared in constant time), else 403 1004.
 *
 * Guards run before the validation pipe, but the check order answers a
 * malformed query (400 1002, step 3) before a refusal (403 1004, step 5):
 * the query is validated here first, by the same pipe and with the same
 * answer, so a malformed handshake is told what is malformed.
 */
@Injectable()
export class WebhookVerifyTokenGuard implements CanActivate {
  private readonly validation = new RequestValidationPipe();

  constructor(@Inject(WEBHOOK_VERIFY_TOKEN) private readonly verifyToken: string | undefined) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const query = (await this.validation.transform(request.query, { type: 'query', metatype: WebhookSubscriptionQuery })) as WebhookSubscriptionQuery;
    if (!sameToken(this.verifyToken, query['hub.verify_token'])) throw new AppException('Forbidden');
    return true;
  }
}
