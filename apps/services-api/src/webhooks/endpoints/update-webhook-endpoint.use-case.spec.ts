import { trustedTenantScope } from '@platform/auth';
import { AppException } from '@platform/errors';
import { FakeTenantAccess, RecordingAuditTrail } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { UpdateWebhookEndpointUseCase } from './update-webhook-endpoint.use-case';
import { InMemoryWebhookEndpoints, OWNER, seededEndpoints, SETTINGS, TENANT_ID } from '../../../test/doubles/webhook-endpoints.fakes';
import type { WebhookEndpointChanges } from './webhook-endpoints.repository';

async function setUp(options: { refusal?: 'Forbidden' } = {}) {
  const access = new FakeTenantAccess();
  const table = new InMemoryWebhookEndpoints();
  const audit = new RecordingAuditTrail();
  const [created] = await seededEndpoints(table, ['https://hooks.example.com/in']);
  access.refusal = options.refusal;
  const useCase = new UpdateWebhookEndpointUseCase(access.asAccess(), table.asRepository(), audit.asTrail(), SETTINGS);
  const update = (changes: WebhookEndpointChanges, webhookEndpointID = created.webhookEndpointID) =>
    useCase.execute({ principal: OWNER, tenantID: TENANT_ID, webhookEndpointID, changes });
  return { access, table, audit, created, update };
}

const codeOf = (error: unknown) => (error instanceof AppException ? { status: error.status, code: error.code } : error);

describe('UpdateWebhookEndpointUseCase', () => {
  it('changes the fields given within the checked scope, and records which in the same transaction', async () => {
    const { update, table, audit, created } = await setUp();
    const updated = await update({ description: 'CRM', eventTypes: ['member.roleChanged'] });
    expect(updated).toMatchObject({ url: 'https://hooks.example.com/in', description: 'CRM', eventTypes: ['member.roleChanged'], enabled: true });
    expect(table.writes).toEqual([{ method: 'update', tenantID: trustedTenantScope(TENANT_ID).tenantID, webhookEndpointID: created.webhookEndpointID }]);
    expect(audit.records).toEqual([
      { runner: table.runner, tenantID: TENANT_ID, record: { action: 'webhookEndpoint.updated', targetID: created.webhookEndpointID, summary: { changed: ['eventTypes', 'description'] } } },
    ]);
  });

  it('answers the endpoint as it is, and writes and records nothing, when nothing is to change', async () => {
    const { update, table, audit, created } = await setUp();
    const { secret: _secret, ...shown } = created;
    await expect(update({})).resolves.toEqual(shown);
    expect(table.writes).toEqual([]);
    expect(audit.records).toEqual([]);
  });

  it('judges a new URL by the outbound policy before writing (400 1002)', async () => {
    const { update, table } = await setUp();
    await expect(update({ url: 'https://[::1]/in' }).catch(codeOf)).resolves.toEqual({ status: 400, code: 1002 });
    expect(table.writes).toEqual([]);
  });

  it('answers 404 1960 for an endpoint absent from the tenant, and records nothing', async () => {
    const { update, audit } = await setUp();
    await expect(update({ enabled: false }, '00000000-0000-4000-8000-000000000000').catch(codeOf)).resolves.toEqual({ status: 404, code: 1960 });
    await expect(update({}, '00000000-0000-4000-8000-000000000000').catch(codeOf)).resolves.toEqual({ status: 404, code: 1960 });
    expect(audit.records).toEqual([]);
  });

  it('checks the owners-only access before writing', async () => {
    const { update, table, access } = await setUp({ refusal: 'Forbidden' });
    await expect(update({ enabled: false }).catch(codeOf)).resolves.toEqual({ status: 403, code: 1004 });
    expect(table.writes).toEqual([]);
    expect(access.checks.at(-1)).toEqual({ tenantID: TENANT_ID, requirement: { ownerOnly: true, tenantNotFoundIs404: true } });
  });
});
