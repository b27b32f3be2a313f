import { ERROR_CATALOG, ErrorKey } from './catalog';
import { isSecretField, redactSecrets } from './secret-fields';

/** One offending input of a 400 1002 (docs/http-conventions.md, Validation). */
export interface FieldError {
  /** Parameter name; a dotted path inside a body, e.g. `campaignModelSlots.body.text`. */
  field: string;
  /**
   * The value as sent, rendered as a string (`"undefined"` when absent).
   * Omitted for fields that hold secrets (passwords, tokens, codes): an answer
   * may be logged or shown where the secret must not be.
   */
  received?: string;
  /** A short description of what is accepted, e.g. `uuid` or `integer 1-200`. */
  allowed: string;
}

/** The JSON of one error inside the envelope. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  error_code: number;
  message: string;
  fields?: FieldError[];
}

/** The single exception type of the platform: a catalog entry plus, for 1002, its fields. */
export class AppException extends Error {
  readonly key: ErrorKey;
  readonly fields?: FieldError[];
  /** For 429s: seconds after which asking again can succeed, sent as `Retry-After`. */
  readonly retryAfterSeconds?: number;
  /** For 405s: the methods the path answers, sent as `Allow`. */
  readonly allowedMethods?: readonly string[];

  constructor(
    key: ErrorKey,
    options: { fields?: FieldError[]; cause?: unknown; retryAfterSeconds?: number; allowedMethods?: readonly string[] } = {},
  ) {
    // A client error (4xx) is an answer, not a fault: nothing logs its stack, and capturing one
    // was a visible share of what a refused request costs (e.g. every throttled refresh).
    const stackTraceLimit = Error.stackTraceLimit;
    if (ERROR_CATALOG[key].status < 500) Error.stackTraceLimit = 0;
    try {
      super(ERROR_CATALOG[key].message, { cause: options.cause });
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = ERROR_CATALOG[key].name;
    this.key = key;
    this.fields = options.fields?.map(withoutSecretValue);
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.allowedMethods = options.allowedMethods;
  }

  get status(): number {
    return ERROR_CATALOG[this.key].status;
  }

  /** The `Retry-After` header's value (whole seconds, at least 1), or undefined when the exception carries none. */
  get retryAfterHeader(): string | undefined {
    return this.retryAfterSeconds === undefined ? undefined : String(Math.max(1, Math.ceil(this.retryAfterSeconds)));
  }

  get code(): number {
    return ERROR_CATALOG[this.key].code;
  }

  toBody(): ErrorBody {
    const entry = ERROR_CATALOG[this.key];
    const body: ErrorBody = { statusCode: entry.status, error: entry.name, error_code: entry.code, message: entry.message };
    if (this.fields) body.fields = this.fields;
    return body;
  }

  static validation(fields: FieldError[]): AppException {
    return new AppException('RequestValidation', { fields });
  }
}

/** A field error as it may be answered: without the value a secret field was sent with. */
function withoutSecretValue(field: FieldError): FieldError {
  if (!isSecretField(field.field) || field.received === undefined) return field;
  return { field: field.field, allowed: field.allowed };
}

/**
 * Renders any value as the `received` string of a field error. An object or
 * array is rendered with the value of every secret-named key in it, at any
 * depth, `[redacted]`: a field that is not a secret may still hold one.
 */
export function renderReceived(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  try {
    return JSON.stringify(redactSecrets(value)) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The JSON type of a value (`object`, `array`, `string`, `number`,
 * `boolean`, `null`; `undefined` when absent): all that a refused body is
 * answered with. A body may be anything the client sent, its password
 * included, so its value is never echoed (docs/errors.md).
 */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** `{errors: [body]}`: the envelope of docs/errors.md. */
export function errorEnvelope(body: ErrorBody): { errors: [ErrorBody] } {
  return { errors: [body] };
}
