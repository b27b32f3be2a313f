import { singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HelpdeskPlatform, startHelpdeskPlatform } from '../helpdesk/helpdesk-platform';
import { mailJobStates } from '../sign-up/sign-up-support';

const PASSWORD = 'a long and secret passphrase';

/** The answer to a body sent with a content type other than JSON (docs/errors.md). */
const CONTENT_TYPE_REFUSED = {
  statusCode: 400,
  error: 'RequestValidationError',
  error_code: 1002,
  message: 'Invalid request data.',
  fields: [{ field: 'content-type', received: 'unsupported body', allowed: 'application/json' }],
};

const NON_JSON = ['a form', 'multipart', 'text/plain'] as const;

/**
 * `fields` sent as one of the types a web page can make a browser post
 * without a CORS preflight: a form, multipart, or text/plain holding the very
 * JSON the operation takes.
 */
function sentAs(type: (typeof NON_JSON)[number], fields: Record<string, string>): { body: string | FormData; headers: Record<string, string> } {
  if (type === 'a form') return { body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  if (type === 'text/plain') return { body: JSON.stringify(fields), headers: { 'content-type': 'text/plain;charset=UTF-8' } };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return { body: form, headers: {} };
}

describe('JSON only: a body of another content type is refused before any work', () => {
  let h: HelpdeskPlatform;
  let operatorEmail: string;
  let ip = 0;

  beforeAll(async () => {
    h = await startHelpdeskPlatform({ TRUST_PROXY: 'loopback' }, ['core-tenants', 'services-api']);
    operatorEmail = (await h.platform.fixtures.operator({ password: PASSWORD })).email;
  });
  afterAll(() => h.close());

  const post = async (url: string, sent: { body: string | FormData; headers: Record<string, string> }, headers: Record<string, string> = {}) => {
    const response = await fetch(url, { method: 'POST', body: sent.body, headers: { 'x-forwarded-for': `10.70.0.${(ip += 1)}`, ...sent.headers, ...headers } });
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it('signs in with the right password sent as JSON', async () => {
    const answer = await post(`${h.platform.coreUrl}/v1/operators/sign-in`, { body: JSON.stringify({ operatorEmail, password: PASSWORD }), headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(200);
  });

  it.each(NON_JSON)('sign-in: refuses the right password sent as %s, 400 1002 on content-type, no token', async (type) => {
    const answer = await post(`${h.platform.coreUrl}/v1/operators/sign-in`, sentAs(type, { operatorEmail, password: PASSWORD }));
    expect(answer.status).toBe(400);
    expect(singleError(answer.body)).toEqual(CONTENT_TYPE_REFUSED);
  });

  it.each(NON_JSON)('operation 8: refuses a verification request sent as %s, and mails nothing', async (type) => {
    const address = `json-only-${type.replace(/\W/g, '')}-${Date.now()}@acme-support.com.br`;
    const answer = await post(`${h.platform.servicesUrl}/v1/operators/email-verification`, sentAs(type, { operatorEmail: address, operatorFirstname: 'Ana' }));
    expect(answer.status).toBe(400);
    expect(singleError(answer.body)).toEqual(CONTENT_TYPE_REFUSED);
    expect(await mailJobStates(h.platform, address)).toEqual([]);
  });

  it.each(NON_JSON)('helpdesk: refuses a domain add sent as %s, before authentication, and asks the provider nothing', async (type) => {
    const domainHostname = `json-only-${type.replace(/\W/g, '')}.acme-support.com.br`;
    const url = `${h.platform.helpdeskUrl}/helpdesk/v1/tenants/${h.tenantID}/helpdesk/domains`;
    const body = () => sentAs(type, { domainHostname });
    const withoutCredential = await post(url, body());
    expect(withoutCredential.status).toBe(400);
    expect(singleError(withoutCredential.body)).toEqual(CONTENT_TYPE_REFUSED);
    const asOwner = await post(url, body(), { authorization: h.owner });
    expect(asOwner.status).toBe(400);
    expect(singleError(asOwner.body)).toEqual(CONTENT_TYPE_REFUSED);
    expect(h.stub.find(domainHostname)).toBeUndefined();
    const stored = await h.platform.dataSource.query('SELECT 1 FROM helpdesk_domains WHERE hostname = $1', [domainHostname]);
    expect(stored).toEqual([]);
  });
});
