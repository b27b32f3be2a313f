import { describe, expect, it } from 'vitest';
import { TARGET_OPERATIONS } from './operations';
import { HostileRequest, UNSTORABLE_TRAITS } from './requests';
import { judge } from './verdict';

const operation = (name: string) => TARGET_OPERATIONS.find((candidate) => candidate.name.startsWith(name))!;
const request = (name: string, forged = false): HostileRequest => ({
  operation: operation(name),
  app: operation(name).app,
  method: operation(name).method,
  target: '/',
  headers: {},
  credential: { label: forged ? 'alg none' : 'none', forged },
  traits: [],
});
const envelope = (statusCode: number, error: string, error_code: number, message: string, extra: object = {}) => ({
  errors: [{ statusCode, error, error_code, message, ...extra }],
});
const UNAUTHORIZED = envelope(401, 'UnauthorizedError', 1003, 'You are not authorized to perform this request.');
const BAD_GATEWAY = envelope(502, 'BadGatewayError', 5002, 'External service returned an invalid response.');
const UNKNOWN = envelope(500, 'UnknownError', 5999, 'For some unknown reason your request has not succeeded.');
const kinds = (violations: { kind: string }[]) => violations.map((violation) => violation.kind);

describe('judging the answer to a hostile request', () => {
  it('accepts a catalog error in the envelope, and a success for a valid or absent credential', () => {
    expect(judge(request('15'), { status: 401, headers: {}, body: UNAUTHORIZED })).toEqual([]);
    expect(judge(request('15'), { status: 200, headers: {}, body: [] })).toEqual([]);
    expect(judge(request('sign in', true), { status: 200, headers: {}, body: {} })).toEqual([]);
  });

  it.each([
    ['a body outside the envelope', 431, { error: 'Request Header Fields Too Large', statusCode: 431 }, 'outside the envelope'],
    ['two errors', 401, { errors: [UNAUTHORIZED.errors[0], UNAUTHORIZED.errors[0]] }, 'outside the envelope'],
    ['a framework code beside the error', 401, envelope(401, 'UnauthorizedError', 1003, 'You are not authorized to perform this request.', { code: 'FST_ERR' }), 'outside the envelope'],
    ['a statusCode other than the status', 400, UNAUTHORIZED, 'outside the envelope'],
    ['a code not in the catalog', 400, envelope(400, 'BadRequest', 4000, 'Bad request'), 'not a catalog error'],
    ['a catalog code with another message', 401, envelope(401, 'UnauthorizedError', 1003, 'at /app/src/auth.ts:12'), 'not a catalog error'],
    ['a redirect', 302, undefined, 'unexpected status'],
  ])('refuses %s', (_, status, body, kind) => {
    expect(kinds(judge(request('15'), { status, headers: {}, body }))).toContain(kind);
  });

  it('refuses a 2xx for a forged credential on an operation that requires one', () => {
    expect(kinds(judge(request('15', true), { status: 200, headers: {}, body: [] }))).toEqual(['forged credential accepted']);
  });

  it('refuses a 2xx for text PostgreSQL cannot store in the path, the query, or a body the operation reads', () => {
    const withTraits = (name: string, traits: string[]) => ({ ...request(name), traits });
    const ok = { status: 200, headers: {}, body: {} };
    expect(kinds(judge(withTraits('3 ', [UNSTORABLE_TRAITS.body]), ok))).toEqual(['unstorable text accepted']);
    expect(kinds(judge(withTraits('4 ', [UNSTORABLE_TRAITS.query]), ok))).toEqual(['unstorable text accepted']);
    expect(kinds(judge(withTraits('5 ', [`long segment, ${UNSTORABLE_TRAITS.path}`]), ok))).toEqual(['unstorable text accepted']);
    // Operation 4 reads no body: one sent to it is ignored.
    expect(judge(withTraits('4 ', [UNSTORABLE_TRAITS.body]), ok)).toEqual([]);
  });

  it('accepts a 1002 whose fields omit `received` (a secret), and refuses one whose received is not a string', () => {
    const refused = (received: unknown) => envelope(400, 'RequestValidationError', 1002, 'Invalid request data.', { fields: [{ field: 'password', received, allowed: 'x' }] });
    expect(judge(request('sign in'), { status: 400, headers: {}, body: refused(undefined) })).toEqual([]);
    expect(kinds(judge(request('sign in'), { status: 400, headers: {}, body: refused(1) }))).toEqual(['outside the envelope']);
  });

  it('accepts only the 5xx the operation lists, never 500 5999', () => {
    expect(judge(request('1 '), { status: 502, headers: {}, body: BAD_GATEWAY })).toEqual([]);
    expect(kinds(judge(request('15'), { status: 502, headers: {}, body: BAD_GATEWAY }))).toEqual(['unlisted 5xx']);
    expect(kinds(judge(request('1 '), { status: 500, headers: {}, body: UNKNOWN }))).toEqual(['unlisted 5xx']);
  });

  it('counts a connection closed without an answer', () => {
    expect(kinds(judge(request('15'), new Error('socket hang up')))).toEqual(['no answer']);
  });
});
