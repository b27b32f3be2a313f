import { AppException, FieldError } from '@platform/errors';

/** How an error crosses the transport: its catalog code and, for 1002, its fields. */
export interface RpcErrorPayload {
  error_code: number;
  fields?: FieldError[];
}

export function toRpcErrorPayload(exception: AppException): RpcErrorPayload {
  return exception.fields ? { error_code: exception.code, fields: exception.fields } : { error_code: exception.code };
}

export function isRpcErrorPayload(value: unknown): value is RpcErrorPayload {
  return typeof value === 'object' && value !== null && typeof (value as RpcErrorPayload).error_code === 'number';
}
