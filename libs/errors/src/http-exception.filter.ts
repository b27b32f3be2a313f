import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppException, errorEnvelope } from './app-exception';
import { ErrorKey } from './catalog';
import { isUnavailableDependency } from './unavailable-dependency';

/** Fastify's own errors raised before a handler runs (body parsing, size limit). */
interface FastifyError {
  code?: string;
  statusCode?: number;
}

const STATUS_TO_KEY: Record<number, ErrorKey> = {
  400: 'RequestValidation',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'RouteNotFound',
  413: 'PayloadTooLarge',
  429: 'TooManyRequests',
  503: 'InternalServiceUnavailable',
};

function fromFastifyError(error: FastifyError): AppException | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return AppException.validation([{ field: 'body', received: 'malformed JSON', allowed: 'a JSON object' }]);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return AppException.validation([{ field: 'content-type', received: 'unsupported body', allowed: 'application/json' }]);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppException('PayloadTooLarge');
    // Raised by the router before any route runs (Fastify's `frameworkErrors`).
    case 'FST_ERR_BAD_URL':
      return new AppException('MalformedUrl');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppException('UrlTooLong');
    default:
      // Prototype poisoning and other client-side parse failures carry a 400.
      if (error.code?.startsWith('FST_') && error.statusCode === 400) {
        return AppException.validation([{ field: 'body', received: 'rejected JSON', allowed: 'a JSON object' }]);
      }
      return undefined;
  }
}

/** Turns whatever was thrown into the platform's error, or undefined when it is unexpected. */
export function toAppException(exception: unknown): AppException | undefined {
  if (exception instanceof AppException) return exception;
  if (exception instanceof HttpException) {
    // Nest wraps Fastify's own client errors (body parsing, size) in an HttpException.
    const fastifyError = typeof exception.cause === 'object' && exception.cause !== null ? fromFastifyError(exception.cause as FastifyError) : undefined;
    if (fastifyError) return fastifyError;
    const key = STATUS_TO_KEY[exception.getStatus()];
    return key ? new AppException(key, { cause: exception }) : undefined;
  }
  if (isUnavailableDependency(exception)) return new AppException('InternalServiceUnavailable', { cause: exception });
  if (typeof exception === 'object' && exception !== null) return fromFastifyError(exception as FastifyError);
  return undefined;
}

/**
 * A tenant-scoped path whose tenantID segment is empty (`/v1/tenants//...`,
 * or `/v1/tenants/` at the end) matches no route; the API answers it 400 1001
 * (step 1 of the check order, docs/http-conventions.md).
 */
const EMPTY_TENANT_SEGMENT = /^(?:\/helpdesk)?\/v1\/tenants\/(?:\/|$|\?)/;

/**
 * The methods the routes matching `url` answer (none when no route matches
 * its path): a request no route answers is 405 when its path has routes.
 */
export type AllowedMethodsAt = (url: string) => readonly string[];

export interface HttpExceptionFilterOptions {
  allowedMethodsAt?: AllowedMethodsAt;
}

/** Why no route answers a request: 1001 for an empty tenantID segment, 405 for a path other methods answer, else 404 1904. */
export function whyNoRouteAnswers(url: string, allowedMethodsAt?: AllowedMethodsAt): AppException {
  if (EMPTY_TENANT_SEGMENT.test(url)) return new AppException('MissingTenantID');
  const allowedMethods = allowedMethodsAt?.(url) ?? [];
  if (allowedMethods.length > 0) return new AppException('MethodNotAllowed', { allowedMethods });
  return new AppException('RouteNotFound');
}

/** Writes a platform error as the answer: its status, the envelope and the headers it carries. */
export function replyWithError(reply: FastifyReply, appException: AppException): void {
  if (appException.retryAfterHeader !== undefined) void reply.header('retry-after', appException.retryAfterHeader);
  if (appException.allowedMethods !== undefined) void reply.header('allow', appException.allowedMethods.join(', '));
  void reply.status(appException.status).header('content-type', 'application/json; charset=utf-8').send(errorEnvelope(appException.toBody()));
}

/**
 * Fastify's `frameworkErrors`: the router's refusals (a path that is not valid
 * percent-encoding, a path parameter over the length limit), raised before
 * any route or Nest filter runs, answered in the envelope all the same.
 */
export function replyWithFrameworkError(error: Error, _request: FastifyRequest, reply: FastifyReply): void {
  replyWithError(reply, toAppException(error) ?? new AppException('Unknown', { cause: error }));
}

/**
 * The one HTTP exception filter: every error leaves in the envelope of docs/errors.md.
 * Unexpected exceptions are logged with their stack and answered 500 5999,
 * without internals.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  constructor(private readonly options: HttpExceptionFilterOptions = {}) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    let appException = toAppException(exception);
    if (appException?.key === 'RouteNotFound') appException = whyNoRouteAnswers(host.switchToHttp().getRequest<FastifyRequest>().url, this.options.allowedMethodsAt);
    if (isUnavailableDependency(exception)) {
      this.logger.warn({ err: exception }, 'PostgreSQL or Redis unavailable, answered 503');
    }
    if (!appException) {
      this.logger.error(
        { err: exception instanceof Error ? exception : new Error(String(exception)) },
        'unexpected exception',
      );
      appException = new AppException('Unknown', { cause: exception });
    }
    replyWithError(reply, appException);
  }
}
