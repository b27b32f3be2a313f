import { AppException } from '@platform/errors';
import { NO_IDEMPOTENCY_KEY } from '@platform/idempotency';
import { FakeTenantAccess, RecordingAuditTrail } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { CreateWebhookEndpointCommand, CreateWebhookEndpointUseCase } from './create-webhook-endpoint.use-case';
import { InMemoryWebhookEndpoints, OWNER, SETTINGS, signingSecrets, TENANT_ID } from '../../../test/doubles/webhook-endpoints.fakes';

function setUp(options: { refusal?: 'Forbidden' | 'TenantNotFound' } = {}) {
  const access = new FakeTenantAccess();
  access.refusal = options.refusal;
  const table = new InMemoryWebhookEndpoints();
  const audit = new RecordingAuditTrail();
  const secrets = signingSecrets();
  const claims: { checks: number; writes: number }[] = [];
  const idempotency = { claimKey: async () => void claims.push({ checks: access.checks.length, writes: table.writes.length }) };
  const useCase = new CreateWebhookEndpointUseCase(access.asAccess(), table.asRepository(), secrets, audit.asTrail(), SETTINGS);
  const create = (command: Partial<CreateWebhookEndpointCommand> = {}) =>
    useCase.execute({ principal: OWNER, tenantID: TENANT_ID, url: 'https://hooks.example.com/in', eventTypes: ['member.removed'], idempotency, ...command });
  return { access, table, audit, secrets, claims, create };
}

const codeOf = (error: unknown) => (error instanceof AppException ? { status: error.status, code: error.code, fields: error.fields } : error);

describe('CreateWebhookEndpointUseCase', () => {
  it('stores the endpoint with its defaults and its secret sealed, and answers the plain secret once', async () => {
    const { create, table, secrets } = setUp();
    const created = await create();
    expect(created).toMatchObject({ url: 'https://hooks.example.com/in', eventTypes: ['member.removed'], description: '', enabled: true, previousSecretExpiresAt: null });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const [row] = table.rows;
    expect(row.tenantID).toBe(TENANT_ID);
    expect(row.sealedSecret).not.toContain(created.secret);
    expect(secrets.open(created.webhookEndpointID, row.sealedSecret)).toBe(created.secret);
  });

  it('checks the owners-only access first, then claims the Idempotency-Key, then writes', async () => {
    const { create, access, claims } = setUp();
    await create();
    expect(access.checks).toEqual([{ tenantID: TENANT_ID, requirement: { ownerOnly: true, tenantNotFoundIs404: true } }]);
    expect(claims).toEqual([{ checks: 1, writes: 0 }]);
  });

  it('records webhookEndpoint.created in the transaction of the insert, with the URL\'s origin and never the secret', async () => {
    const { create, audit, table } = setUp();
    const created = await create({ url: 'https://hooks.example.com/in?token=abc', eventTypes: ['member.removed', 'member.roleChanged'], enabled: false });
    expect(audit.records).toEqual([
      {
        runner: table.runner,
        tenantID: TENANT_ID,
        record: {
          action: 'webhookEndpoint.created',
          targetID: created.webhookEndpointID,
          summary: { urlOrigin: 'https://hooks.example.com', eventTypes: ['member.removed', 'member.roleChanged'], enabled: false },
        },
      },
    ]);
    expect(JSON.stringify(audit.records)).not.toContain('whsec_');
    expect(JSON.stringify(audit.records)).not.toContain('token=abc');
  });

  it('answers 409 1961 past the per-tenant bound and records nothing', async () => {
    const { create, audit } = setUp();
    await create();
    await create();
    await expect(create().catch(codeOf)).resolves.toEqual({ status: 409, code: 1961, fields: undefined });
    expect(audit.actions()).toEqual(['webhookEndpoint.created', 'webhookEndpoint.created']);
  });

  it('refuses a destination the outbound policy does not allow with 400 1002 on url, before any write', async () => {
    const { create, table } = setUp();
    await expect(create({ url: 'http://10.0.0.8/in' }).catch(codeOf)).resolves.toMatchObject({ status: 400, code: 1002, fields: [{ field: 'url', received: 'http://10.0.0.8/in' }] });
    expect(table.writes).toEqual([]);
  });

  it('writes nothing for a caller the access check refuses, and claims no key', async () => {
    const { create, table, claims } = setUp({ refusal: 'Forbidden' });
    await expect(create({ idempotency: NO_IDEMPOTENCY_KEY }).catch(codeOf)).resolves.toMatchObject({ status: 403, code: 1004 });
    expect(table.writes).toEqual([]);
    expect(claims).toEqual([]);
  });
});
