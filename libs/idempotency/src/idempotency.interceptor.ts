import { CallHandler, ExecutionContext, Inject, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { actorOf, AuthenticatedRequest } from '@platform/auth';
import { errorEnvelope, toAppException } from '@platform/errors';
import { canonicalUuid } from '@platform/http-common';
import type { FastifyReply } from 'fastify';
import { randomUUID } from 'node:crypto';
import { from, lastValueFrom, Observable } from 'rxjs';
import { fingerprintOf } from './fingerprint';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, idempotencyKeyOf } from './idempotency-key';
import { attachKeyClaim } from './idempotency-key-claim';
import type { IdempotencyKeyStore, KeyScope, StoredAnswer } from './idempotency-key-store';
import { IDEMPOTENCY_KEY_STORE, IDEMPOTENCY_SETTINGS, IdempotencyModuleSettings } from './idempotency-settings';
import { IdempotentReplay, IdempotentRequest } from './idempotent-request';

/** Response headers a replay repeats besides the body (the content type is always JSON). */
const KEPT_HEADERS = ['location'] as const;
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

function keptHeadersOf(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

/**
 * The `@Idempotent()` routes' interceptor (docs/idempotency.md). It runs after
 * the guard (authentication); the key's format is checked here, before the
 * route's own validation. The claim itself is the use case's step after its
 * access check (IdempotencyKeyClaim, handed over by `@IdempotencyClaim()`), so
 * it is made right before the action; then the action's answer is kept for
 * replay, or the claim released.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger(IdempotencyInterceptor.name);

  constructor(
    @Inject(IDEMPOTENCY_KEY_STORE) private readonly store: IdempotencyKeyStore,
    @Inject(IDEMPOTENCY_SETTINGS) private readonly settings: IdempotencyModuleSettings,
    private readonly clock: Clock,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = idempotencyKeyOf(request.headers[IDEMPOTENCY_KEY_HEADER]);
    if (key === undefined) return next.handle();
    const params = (request.params ?? {}) as Record<string, unknown>;
    const scope: KeyScope = {
      app: this.settings.app,
      // Idempotent routes are guarded; a route without a principal never shares keys with one that has.
      principal: request.principal ? actorOf(request.principal) : 'anonymous',
      tenantID: typeof params.tenantID === 'string' ? canonicalUuid(params.tenantID) : '',
      key,
    };
    // The body as parsed, before the route's DTO transforms it: what the client sent.
    const fingerprint = fingerprintOf({ method: request.method, route: request.routeOptions.url ?? request.url, params, body: request.body });
    const idempotent = new IdempotentRequest(this.store, scope, fingerprint, this.settings, () => this.clock.now(), randomUUID);
    attachKeyClaim(request, { claimKey: () => idempotent.claim() });
    return from(this.handle(idempotent, next, context.switchToHttp().getResponse<FastifyReply>()));
  }

  private async handle(idempotent: IdempotentRequest, next: CallHandler, reply: FastifyReply): Promise<unknown> {
    let value: unknown;
    try {
      value = await lastValueFrom(next.handle(), { defaultValue: undefined });
    } catch (error) {
      if (error instanceof IdempotentReplay) return this.replay(error.answer, reply);
      if (idempotent.owned) {
        const exception = toAppException(error);
        const status = exception?.status ?? 500;
        await this.settle(idempotent, { status, headers: {}, body: exception ? JSON.stringify(errorEnvelope(exception.toBody())) : '' });
      }
      throw error;
    }
    if (!idempotent.claimed) {
      this.logger.error({ key: idempotent.scope.key }, 'an @Idempotent() route answered without claiming its key after the access check');
    }
    await this.settle(idempotent, { status: reply.statusCode, headers: keptHeadersOf(reply), body: JSON.stringify(value ?? null) });
    return value;
  }

  /**
   * Keeps the answer (or frees the key) before it is sent, so a client that
   * has the answer and retries gets the replay. If PostgreSQL fails here the
   * answer is still sent; the key stays claimed until its lease lapses.
   */
  private async settle(idempotent: IdempotentRequest, answer: StoredAnswer): Promise<void> {
    await idempotent.settle(answer).catch((error: unknown) => {
      this.logger.warn({ err: error, key: idempotent.scope.key }, 'idempotency key not settled; it is freed when its lease lapses');
    });
  }

  private replay(answer: StoredAnswer, reply: FastifyReply): string {
    void reply.status(answer.status).headers(answer.headers).header('content-type', JSON_CONTENT_TYPE).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return answer.body;
  }
}
