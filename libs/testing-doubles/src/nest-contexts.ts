import type { ArgumentsHost, ExecutionContext } from '@nestjs/common';
import { fake } from './fake';

/**
 * Nest's context of one HTTP request, as a guard or an interceptor reads it
 * (`switchToHttp().getRequest()`, `getResponse()`). Nest's getters are
 * generic (`getRequest<T>(): T`): the caller names the type it expects, so
 * the request and reply given here are handed back as whatever it asks for.
 * A guard reads the request alone: the reply may be left out.
 */
export function httpContext(request: object, reply: object = {}): ExecutionContext {
  return fake<ExecutionContext>({
    switchToHttp: () => ({ getRequest: <T>() => request as T, getResponse: <T>() => reply as T, getNext: <T>() => undefined as T }),
  });
}

/** Nest's host of one transport message, as an exception filter reads it (`switchToRpc().getData()`). */
export function rpcHost(data: unknown): ArgumentsHost {
  return fake<ArgumentsHost>({
    switchToRpc: () => ({ getData: <T>() => data as T, getContext: <T>() => undefined as T }),
  });
}
