import { ERROR_CATALOG, errorKeyOfCode } from '@platform/errors';
import { RawResponse } from '../raw-http';
import { HostileRequest, UNSTORABLE_TRAITS } from './requests';

export type ViolationKind =
  | 'no answer'
  | 'outside the envelope'
  | 'not a catalog error'
  | 'unlisted 5xx'
  | 'forged credential accepted'
  | 'unstorable text accepted'
  | 'unexpected status'
  | 'not ready afterwards';

export interface Violation {
  kind: ViolationKind;
  status?: number;
  detail: string;
}

const ERROR_KEYS = new Set(['statusCode', 'error', 'error_code', 'message', 'fields']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why a body is not exactly `{errors: [{statusCode, error, error_code, message, fields?}]}` for this status, if it is not. */
function envelopeProblem(status: number, body: unknown): { kind: ViolationKind; detail: string } | undefined {
  const errors = isRecord(body) && Object.keys(body).length === 1 ? body.errors : undefined;
  if (!Array.isArray(errors) || errors.length !== 1 || !isRecord(errors[0])) return { kind: 'outside the envelope', detail: 'body is not {errors: [one error]}' };
  const error = errors[0];
  const extra = Object.keys(error).filter((key) => !ERROR_KEYS.has(key));
  if (extra.length > 0) return { kind: 'outside the envelope', detail: `unexpected keys: ${extra.join(', ')}` };
  if (error.statusCode !== status) return { kind: 'outside the envelope', detail: `statusCode ${String(error.statusCode)} on a ${status}` };
  const key = typeof error.error_code === 'number' ? errorKeyOfCode(error.error_code) : undefined;
  const entry = key ? ERROR_CATALOG[key] : undefined;
  if (!entry || entry.name !== error.error || entry.status !== status || entry.message !== error.message) {
    return { kind: 'not a catalog error', detail: `${String(error.error_code)} ${String(error.error)}` };
  }
  if (error.fields !== undefined) {
    const wellFormed = Array.isArray(error.fields) && error.fields.every((field) => isRecord(field) && ['field', 'allowed'].every((name) => typeof field[name] === 'string') && ['string', 'undefined'].includes(typeof field.received));
    if (!wellFormed) return { kind: 'outside the envelope', detail: 'fields are not [{field, received?, allowed}]' };
  }
  return undefined;
}

/**
 * Whether the request hands the operation text PostgreSQL cannot store: in
 * its path or query, or in a body the operation reads (a body sent with
 * another method, or to an operation without one, may be ignored).
 */
function carriesUnstorableText(request: HostileRequest): boolean {
  const { traits, operation, method } = request;
  // A path's trait names each of its hostile segments, joined.
  if (traits.some((trait) => trait.includes(UNSTORABLE_TRAITS.path)) || traits.includes(UNSTORABLE_TRAITS.query)) return true;
  return traits.includes(UNSTORABLE_TRAITS.body) && operation.body && method === operation.method;
}

/**
 * What is wrong with the answer to a hostile request: every error in the
 * envelope with a catalog error; no 5xx but those the operation lists; never
 * a 2xx for a forged credential or for text PostgreSQL cannot store; an answer at all.
 */
export function judge(request: HostileRequest, answer: RawResponse | Error): Violation[] {
  if (answer instanceof Error) return [{ kind: 'no answer', detail: answer.message }];
  const { status, body } = answer;
  const violations: Violation[] = [];
  if (status >= 200 && status < 300) {
    if (request.credential.forged && request.operation.authenticated) violations.push({ kind: 'forged credential accepted', status, detail: request.credential.label });
    if (carriesUnstorableText(request)) violations.push({ kind: 'unstorable text accepted', status, detail: 'U+0000 or an unpaired surrogate was taken' });
    return violations;
  }
  if (status < 400 || status > 599) return [{ kind: 'unexpected status', status, detail: String(status) }];
  const problem = envelopeProblem(status, body);
  if (problem) violations.push({ ...problem, status });
  if (status >= 500) {
    const code = (body as { errors?: { error_code?: number }[] })?.errors?.[0]?.error_code;
    if (code === undefined || !request.operation.serverErrors.includes(code)) violations.push({ kind: 'unlisted 5xx', status, detail: `${status} ${String(code)}` });
  }
  return violations;
}
