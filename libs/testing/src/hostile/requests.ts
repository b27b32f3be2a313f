import fc from 'fast-check';
import { CredentialCase } from './credentials';
import { AppRole, PathParameter, TARGET_OPERATIONS, TargetOperation } from './operations';
import { HostileTargets } from './targets';

/** One hostile request, exactly as it goes on the wire, with what made it hostile. */
export interface HostileRequest {
  operation: TargetOperation;
  app: AppRole;
  method: string;
  /** Path and query, sent as is (no encoding, no checks). */
  target: string;
  headers: Record<string, string>;
  body?: string;
  credential: CredentialCase;
  /** Short names of what was made hostile, for reports. */
  traits: string[];
}

/** A value and the trait it adds to its request (undefined: well-formed). */
type Traited<T> = { value: T; trait?: string };
const plain = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<Traited<T>> => arbitrary.map((value) => ({ value }));
const hostile = <T>(trait: string, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<Traited<T>> => arbitrary.map((value) => ({ value, trait }));

const nestedArrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const nestedObjects = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const deepJson = fc.tuple(fc.integer({ min: 60, max: 6000 }), fc.boolean()).map(([levels, arrays]) => (arrays ? nestedArrays(levels) : nestedObjects(levels)));

/**
 * Text PostgreSQL cannot store: U+0000 and unpaired surrogates, amid ordinary
 * text. A JSON body carries both (as `\u0000` and `\ud800` escapes); a URL
 * only U+0000 (`%00`), as no UTF-8 encodes a lone surrogate.
 */
export const UNSTORABLE_TRAITS = { path: 'unstorable text in path', query: 'unstorable text in query', body: 'unstorable text in body' } as const;
const UNSTORABLE_CHARACTERS = ['\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF'];
const unstorableText = (characters: string[]) =>
  fc.tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...characters), fc.string({ maxLength: 12 })).map(([before, bad, after]) => before + bad + after);
const unstorableJsonText = unstorableText(UNSTORABLE_CHARACTERS);
const unstorableUrlText = unstorableText(['\u0000']).map(encodeURIComponent);

/** Path segments no route should take: empty, too long, bad percent-encoding, traversal, unicode, injection. */
const hostileSegment: fc.Arbitrary<Traited<string>> = fc.oneof(
  hostile('empty segment', fc.constant('')),
  hostile('long segment', fc.integer({ min: 90, max: 12_000 }).map((length) => 'a'.repeat(length))),
  hostile(
    'bad percent-encoding',
    fc.constantFrom('%%', '%00', '%C0%AE%C0%AE%2F', '%E0%A4%A', '%FF%FE', '%', '%zz', '%u0041', '%2e%2e%2f%2e%2e', '%F0%9F%98'),
  ),
  hostile('traversal', fc.constantFrom('..', '.', '..%2F..%2Fetc%2Fpasswd', '%2F', '..;')),
  hostile('unicode segment', fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map(encodeURIComponent)),
  hostile('raw unicode segment', fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 })),
  hostile('injection', fc.constantFrom("1' OR '1'='1", "'; DROP TABLE tenants; --", '$where', '{"$gt":""}', '<script>').map(encodeURIComponent)),
  hostile('uuid look-alike', fc.uuid().chain((id) => fc.constantFrom(id.toUpperCase(), `{${id}}`, `${id}0`, id.replace(/-/g, ''), `${id.slice(0, 14)}0${id.slice(15)}`))),
  hostile('number', fc.oneof(fc.integer(), fc.constantFrom('9007199254740993', '-0', '1e309', 'NaN')).map(String)),
  hostile(UNSTORABLE_TRAITS.path, unstorableUrlText),
);

function wellFormedSegment(parameter: PathParameter, targets: HostileTargets, destructive: boolean): fc.Arbitrary<string> {
  switch (parameter) {
    case 'tenantID':
      return fc.oneof({ weight: 4, arbitrary: fc.constant(targets.tenantID) }, { weight: 1, arbitrary: fc.uuid() });
    case 'uuid':
      return destructive || targets.knownIDs.length === 0 ? fc.uuid() : fc.oneof(fc.constantFrom(...targets.knownIDs), fc.uuid());
    case 'hostname':
      return destructive || !targets.domainHostname ? fc.domain() : fc.oneof(fc.constant(targets.domainHostname), fc.domain());
  }
}

function pathOf(operation: TargetOperation, targets: HostileTargets): fc.Arbitrary<Traited<string>> {
  const destructive = operation.method === 'DELETE';
  const segments = operation.segments.map((segment) =>
    typeof segment === 'string'
      ? fc.constant<Traited<string>>({ value: segment })
      : fc.oneof({ weight: 3, arbitrary: plain(wellFormedSegment(segment.param, targets, destructive)) }, { weight: 2, arbitrary: hostileSegment }),
  );
  return fc.tuple(...segments).map((parts) => ({
    value: `/${parts.map((part) => part.value).join('/')}`,
    trait: parts.map((part) => part.trait).filter(Boolean).join(', ') || undefined,
  }));
}

const QUERY_NAMES = ['page', 'perPage', 'sortField', 'sortDirection', 'search', 'filters', 'scope', '__proto__', 'constructor[prototype][admin]', 'page[]', 'perPage[0]'];
const queryValue = fc.oneof(
  fc.constantFrom('1', '0', '-1', '01', '+1', '1e3', '1.0', '9007199254740993', 'NaN', 'true', 'null', '[]', '{}', '-1', 'createdAt', 'user-based'),
  fc.string({ unit: 'grapheme', maxLength: 130 }).map(encodeURIComponent),
  fc.jsonValue({ maxDepth: 3 }).map((value) => encodeURIComponent(JSON.stringify(value))),
  fc.constantFrom('%%', '%C0%AE', '%00', '%E0%A4%A', '%'),
);

const hostileQuery: fc.Arbitrary<Traited<string>> = fc.oneof(
  hostile('hostile query', fc.array(fc.tuple(fc.constantFrom(...QUERY_NAMES), queryValue), { minLength: 1, maxLength: 8 }).map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&'))),
  hostile('repeated query params', fc.integer({ min: 2, max: 50 }).map((times) => Array.from({ length: times }, (_, index) => `page=${index + 1}&perPage=${index}`).join('&'))),
  hostile('huge query', fc.integer({ min: 1_000, max: 40_000 }).map((length) => `search=${'q'.repeat(length)}`)),
  hostile('deep filters', deepJson.map((json) => `filters=${encodeURIComponent(json)}`)),
  hostile(UNSTORABLE_TRAITS.query, fc.tuple(fc.constantFrom('search', 'sortField', 'scope', 'page'), unstorableUrlText).map(([name, value]) => `${name}=${value}`)),
  hostile('filters poisoning', fc.constantFrom('{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '{"campaignModelName":{"$ne":null}}', '"text"').map((json) => `filters=${encodeURIComponent(json)}`)),
);

const FIELD_NAMES = [
  'operatorEmail', 'password', 'operatorFirstname', 'pluginID', 'campaignModelChannel', 'campaignModelChannelID', 'campaignModelName',
  'campaignModelType', 'campaignModelMeta', 'campaignModelTags', 'campaignModelSlots', 'traces', 'domainHostname',
];
const hostileFieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.integer({ min: 1_000, max: 300_000 }).map((length) => 'x'.repeat(length)),
  fc.uuid(),
  fc.array(fc.record({ source: fc.string(), traceRef: fc.jsonValue({ maxDepth: 2 }) }), { maxLength: 15 }),
);

/**
 * Bodies whose only fault may be text PostgreSQL cannot store: in a field,
 * in an array item, deep in free-form metadata, or as an object key. Partial
 * updates (operation 3) take such a body as it is, so it reaches SQL unless refused.
 */
const unstorableBody: fc.Arbitrary<string> = fc
  .oneof(
    fc.dictionary(fc.constantFrom(...FIELD_NAMES), unstorableJsonText, { minKeys: 1, maxKeys: 3 }),
    fc.tuple(fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }), unstorableJsonText).map(([tags, bad]) => ({ campaignModelTags: [...tags, bad] })),
    fc.record({ campaignModelMeta: fc.dictionary(unstorableJsonText, fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 3 }) }),
    fc.record({ campaignModelMeta: fc.record({ nested: fc.record({ deeper: fc.array(unstorableJsonText, { minLength: 1, maxLength: 3 }) }) }) }),
    fc.record({ campaignModelSlots: fc.record({ body: fc.record({ text: unstorableJsonText }) }) }),
  )
  .map((body) => JSON.stringify(body));

/** Bodies: wrong types, deep nesting, huge strings, prototype poisoning, unstorable text, not JSON at all. */
const hostileBody: fc.Arbitrary<Traited<string>> = fc.oneof(
  hostile('wrong field types', fc.dictionary(fc.constantFrom(...FIELD_NAMES), hostileFieldValue, { maxKeys: 6 }).map((fields) => JSON.stringify(fields))),
  hostile('body not an object', fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? 'null')),
  hostile('deep body', deepJson),
  hostile('deep field', fc.tuple(fc.constantFrom(...FIELD_NAMES), deepJson).map(([field, json]) => `{"${field}":${json}}`)),
  hostile('huge body', fc.integer({ min: 100_000, max: 1_300_000 }).map((length) => JSON.stringify({ operatorEmail: 'x'.repeat(length) }))),
  hostile(
    'prototype poisoning',
    fc.constantFrom(
      '{"__proto__":{"isAdmin":true},"pluginID":"x"}',
      '{"constructor":{"prototype":{"isAdmin":true}}}',
      '{"campaignModelMeta":{"__proto__":{"polluted":1}}}',
      '{"traces":[{"source":"a","traceRef":"b","__proto__":{"x":1}}]}',
      '{"a":1,"a":2,"__proto__":null}',
    ),
  ),
  hostile(UNSTORABLE_TRAITS.body, unstorableBody),
  hostile('not JSON', fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.constantFrom('{"a":', 'undefined', 'NaN', "{'a':1}", '{"a":1}}', '\uFEFF{}', ''))),
);

const CONTENT_TYPES = [
  'text/plain', 'application/json; charset=utf-16', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
  'application/json, text/html', 'application/vnd.api+json', ';;;', 'application/json; charset=', 'APPLICATION/JSON',
];

const hostileHeaders: fc.Arbitrary<Traited<Record<string, string>>> = fc.oneof(
  hostile('content type', fc.constantFrom(...CONTENT_TYPES).map((type) => ({ 'content-type': type }))),
  hostile('huge header', fc.integer({ min: 8, max: 136 }).map((kibibytes) => ({ 'x-padding': 'p'.repeat(kibibytes * 1024) }))),
  hostile('many headers', fc.integer({ min: 50, max: 400 }).map((count) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`x-h${index}`, 'v'])))),
  hostile('request id', fc.string({ unit: 'grapheme', maxLength: 300 }).map((id) => ({ 'x-request-id': id }))),
  hostile('content encoding', fc.constantFrom('gzip', 'br', 'identity, gzip').map((encoding) => ({ 'content-encoding': encoding }))),
  hostile('chunked and length', fc.constant({ 'transfer-encoding': 'chunked' })),
  hostile('expectation', fc.constantFrom('100-continue', 'nothing-in-particular', '').map((expect) => ({ expect }))),
  hostile('forwarded for', fc.constantFrom('not-an-ip', '1.2.3.4, , ,', '::1%eth0', 'x'.repeat(2000)).map((value) => ({ 'x-forwarded-for': value }))),
);

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function methodOf(operation: TargetOperation): fc.Arbitrary<Traited<string>> {
  return fc.oneof(
    { weight: 17, arbitrary: plain(fc.constant(operation.method)) },
    { weight: 2, arbitrary: hostile('other method', fc.constantFrom(...OTHER_METHODS.filter((method) => method !== operation.method))) },
    { weight: 1, arbitrary: hostile('unknown method', fc.constantFrom('FOO', 'get', 'PROPFIND', 'TRACE', 'CONNECT')) },
  );
}

/** Sometimes well-formed, sometimes hostile: most requests get one or two hostile parts, so each is seen on its own too. */
const sometimes = <T>(wellFormed: fc.Arbitrary<Traited<T>>, bad: fc.Arbitrary<Traited<T>>, badWeight: number) =>
  fc.oneof({ weight: 10 - badWeight, arbitrary: wellFormed }, { weight: badWeight, arbitrary: bad });

/** One hostile request at one of the target operations. */
export function hostileRequest(targets: HostileTargets, credentials: fc.Arbitrary<CredentialCase>): fc.Arbitrary<HostileRequest> {
  return fc.constantFrom(...TARGET_OPERATIONS).chain((operation) =>
    fc
      .record({
        method: methodOf(operation),
        path: pathOf(operation, targets),
        query: sometimes(plain(fc.constant('')), hostileQuery, operation.method === 'GET' ? 4 : 1),
        headers: sometimes(plain(fc.constant({})), hostileHeaders, 3),
        body: operation.body
          ? sometimes(plain(fc.constant('{}')), hostileBody, 8)
          : fc.oneof({ weight: 8, arbitrary: plain(fc.constant<string | undefined>(undefined)) }, { weight: 2, arbitrary: hostileBody }),
        credential: credentials,
      })
      .map(({ method, path, query, headers, body, credential }) => {
        // Chunked framing with no body would leave the server waiting for chunks until its request timeout.
        const bodyText = body.value ?? ('transfer-encoding' in headers.value ? '' : undefined);
        const allHeaders: Record<string, string> = {};
        if (credential.header !== undefined) allHeaders.authorization = credential.header;
        if (bodyText !== undefined) allHeaders['content-type'] = 'application/json';
        Object.assign(allHeaders, headers.value);
        const request: HostileRequest = {
          operation,
          app: operation.app,
          method: method.value,
          target: query.value ? `${path.value}?${query.value}` : path.value,
          headers: allHeaders,
          body: bodyText,
          credential,
          traits: [method.trait, path.trait, query.trait, headers.trait, body.trait, credential.forged ? `forged: ${credential.label}` : undefined].filter(
            (trait): trait is string => trait !== undefined,
          ),
        };
        return request;
      }),
  );
}
