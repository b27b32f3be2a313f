import { ArgumentMetadata, ArgumentsHost, Catch, Injectable, Logger, PipeTransform, RpcExceptionFilter } from '@nestjs/common';
import { AppException, isUnavailableDependency, redactSecrets } from '@platform/errors';
import { RequestValidationPipe } from '@platform/http-common';
import { Observable, throwError } from 'rxjs';
import { toRpcErrorPayload } from './rpc-error';
import { ReplayedTransportRequest } from './transport-request-scope';

/**
 * Validates message payloads on receipt with the same rules (and the same
 * 1002 `fields`) as HTTP bodies: a connected microservice does not get the
 * HTTP app's pipes, so it gets this one.
 */
@Injectable()
export class RpcValidationPipe implements PipeTransform {
  private readonly pipe = new RequestValidationPipe();

  transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    return this.pipe.transform(value, { ...metadata, type: metadata.type === 'custom' ? 'custom' : 'body' });
  }
}

/**
 * Sends every handler failure back as `{error_code, fields?}`: PostgreSQL or
 * Redis unreachable becomes 5903, anything else unexpected is logged and becomes 5999.
 * The payload is logged with its secrets redacted: messages carry passwords,
 * password hashes and token hashes (sign-in, registration, plugin connections).
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('RpcErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    if (exception instanceof AppException) return throwError(() => toRpcErrorPayload(exception));
    if (exception instanceof ReplayedTransportRequest) {
      // Only a message published again by someone who can write Redis (its claim deleted) gets here.
      this.logger.warn({ rpc: { id: exception.request.id, pattern: exception.request.pattern } }, 'transport request replayed: handled once already, nothing done');
      return throwError(() => toRpcErrorPayload(new AppException('Forbidden')));
    }
    if (isUnavailableDependency(exception)) {
      this.logger.warn({ err: exception }, 'PostgreSQL or Redis unavailable while handling a message');
      return throwError(() => toRpcErrorPayload(new AppException('InternalServiceUnavailable', { cause: exception })));
    }
    this.logger.error(
      { err: exception instanceof Error ? exception : new Error(String(exception)), data: redactSecrets(host.switchToRpc().getData<unknown>()) },
      'unexpected exception in message handler',
    );
    return throwError(() => toRpcErrorPayload(new AppException('Unknown')));
  }
}
