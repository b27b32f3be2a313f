import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, freshAddress, requestCode, SignUpPlatform, signUp, startSignUpPlatform } from '../sign-up/sign-up-support';

const ROTATIONS = '/v1/tenants/{tenantID}/webhooks/endpoints/{webhookEndpointID}/secret-rotations';

/** The operations these tests call, as `METHOD path` of the committed OpenAPI documents. */
const COVERED = [
  'POST /v1/operators/sign-in',
  'POST /v1/operators',
  'POST /v1/tenants/{tenantID}/plugins/connections',
  'POST /v1/tenants/{tenantID}/realtime-tickets',
  'POST /v1/tenants/{tenantID}/webhooks/endpoints',
  `POST ${ROTATIONS}`,
];

/** A field that holds a credential or a ticket: `token`, `secret`, `ticket`, or a name ending in one (`pluginConnectionToken`). */
const CREDENTIAL_FIELD = /(^|[a-z])(token|secret|ticket)$/i;

interface Schema {
  $ref?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
}

/** The operations of the committed OpenAPI documents (tests run from the repository's root) whose successful answer holds a credential field at any depth. */
function operationsAnsweringCredentials(): string[] {
  const found: string[] = [];
  for (const name of ['core-tenants', 'services-api', 'plugins-helpdesk']) {
    const document = JSON.parse(readFileSync(`docs/openapi/${name}.json`, 'utf8'));
    const schemas: Record<string, Schema> = document.components?.schemas ?? {};
    const holds = (schema: Schema | undefined, seen: Set<string>): boolean => {
      if (!schema) return false;
      if (schema.$ref) {
        if (seen.has(schema.$ref)) return false;
        return holds(schemas[schema.$ref.split('/').pop()!], new Set([...seen, schema.$ref]));
      }
      const properties = Object.entries(schema.properties ?? {});
      return (
        properties.some(([field, value]) => CREDENTIAL_FIELD.test(field) || holds(value, seen)) ||
        holds(schema.items, seen) ||
        [...(schema.allOf ?? []), ...(schema.oneOf ?? [])].some((part) => holds(part, seen))
      );
    };
    for (const [path, operations] of Object.entries<Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const answers = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
        if (answers.some(([, answer]) => holds(answer.content?.['application/json']?.schema, new Set()))) found.push(`${method.toUpperCase()} ${path}`);
      }
    }
  }
  return found;
}

/** The cache directive of an answer. */
const cacheControlOf = (answer: { response: Response }) => answer.response.headers.get('cache-control');

/**
 * Every answer that hands out a credential or a ticket (docs/http-conventions.md,
 * Caching) is sent with `Cache-Control: no-store`, a replayed one too; other
 * answers are left to the client's defaults.
 */
describe('answers carrying a credential or a ticket', () => {
  let env: SignUpPlatform;
  let tenantID: string;
  let owner: string;
  let operator: { email: string; password: string };

  beforeAll(async () => {
    env = await startSignUpPlatform();
    const { fixtures } = env.platform;
    tenantID = await fixtures.tenant();
    const created = await fixtures.operator();
    await fixtures.membership(tenantID, created.operatorID, 'owner');
    operator = created;
    owner = `Bearer ${await env.platform.tokenFor(created.operatorID)}`;
  });
  afterAll(() => env?.close());

  it('sign-in: the operator token (core-tenants)', async () => {
    const answer = await env.platform.api.core.POST('/v1/operators/sign-in', { body: { operatorEmail: operator.email, password: operator.password } });
    expect(answer.data!.data.token).toEqual(expect.any(String));
    expect(cacheControlOf(answer)).toBe('no-store');
  });

  it('sign-up: the new operator token', async () => {
    const address = freshAddress();
    const since = env.smtp.mails.length;
    expect((await requestCode(env.platform, { operatorEmail: address, operatorFirstname: 'Ana' })).response.status).toBe(202);
    const code = codeOf(await env.smtp.nextMailTo(address, { since }));
    const answer = await signUp(env.platform, { operatorEmail: address, operatorFirstname: 'Ana', password: 'a long enough secret', emailVerificationCode: code });
    expect(answer.response.status).toBe(201);
    expect(cacheControlOf(answer)).toBe('no-store');
  });

  it('plugin installation: the connection token', async () => {
    const { pluginID } = await env.platform.fixtures.plugin();
    const answer = await env.platform.api.services.POST('/v1/tenants/{tenantID}/plugins/connections', { params: { path: { tenantID } }, headers: { authorization: owner }, body: { pluginID } });
    expect(answer.data!.data.pluginConnectionToken).toEqual(expect.any(String));
    expect(cacheControlOf(answer)).toBe('no-store');
  });

  it('real-time tickets', async () => {
    const answer = await env.platform.api.services.POST('/v1/tenants/{tenantID}/realtime-tickets', { params: { path: { tenantID } }, headers: { authorization: owner } });
    expect(answer.data!.data.ticket).toEqual(expect.any(String));
    expect(cacheControlOf(answer)).toBe('no-store');
  });

  it("webhook endpoints' signing secrets, on creation and on each rotation, replayed ones included", async () => {
    const created = await env.platform.api.services.POST('/v1/tenants/{tenantID}/webhooks/endpoints', {
      params: { path: { tenantID } },
      headers: { authorization: owner },
      body: { url: 'https://hooks.example.com/no-store', eventTypes: ['member.removed'] },
    });
    expect(created.data!.data.secret).toEqual(expect.any(String));
    expect(cacheControlOf(created)).toBe('no-store');
    const rotate = () =>
      env.platform.api.services.POST(ROTATIONS, {
        params: { path: { tenantID, webhookEndpointID: created.data!.data.webhookEndpointID } },
        headers: { authorization: owner, 'idempotency-key': 'no-store-rotation' },
      });
    const rotated = await rotate();
    const replayed = await rotate();
    expect(replayed.response.headers.get('idempotent-replayed')).toBe('true');
    for (const answer of [rotated, replayed]) {
      expect(answer.data!.data.secret).toEqual(expect.any(String));
      expect(cacheControlOf(answer)).toBe('no-store');
    }
  });

  it('covers every operation whose answer holds a token, a secret or a ticket', () => {
    expect(operationsAnsweringCredentials().sort()).toEqual([...COVERED].sort());
  });

  it('leaves answers without a credential alone', async () => {
    const listed = await env.platform.api.services.GET('/v1/tenants/{tenantID}/webhooks/endpoints', { params: { path: { tenantID }, query: {} }, headers: { authorization: owner } });
    expect(listed.response.status).toBe(200);
    expect(cacheControlOf(listed)).toBeNull();
  });
});
