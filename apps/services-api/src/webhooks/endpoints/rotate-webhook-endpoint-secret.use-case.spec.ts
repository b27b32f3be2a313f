import { AppException } from '@platform/errors';
import { FakeClock, FakeTenantAccess, RecordingAuditTrail } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { RotateWebhookEndpointSecretUseCase } from './rotate-webhook-endpoint-secret.use-case';
import { InMemoryWebhookEndpoints, OWNER, seededEndpoints, SETTINGS, signingSecrets, TENANT_ID } from '../../../test/doubles/webhook-endpoints.fakes';

async function setUp(options: { graceHours?: number; refusal?: 'Forbidden' } = {}) {
  const access = new FakeTenantAccess();
  const table = new InMemoryWebhookEndpoints();
  const audit = new RecordingAuditTrail();
  const secrets = signingSecrets();
  const clock = new FakeClock();
  const [created] = await seededEndpoints(table, ['https://hooks.example.com/in']);
  access.refusal = options.refusal;
  const claims: number[] = [];
  const idempotency = { claimKey: async () => void claims.push(access.checks.length) };
  const settings = { ...SETTINGS, rotationGraceHours: options.graceHours ?? 24 };
  const useCase = new RotateWebhookEndpointSecretUseCase(access.asAccess(), table.asRepository(), secrets, audit.asTrail(), clock, settings);
  const rotate = (webhookEndpointID = created.webhookEndpointID) => useCase.execute({ principal: OWNER, tenantID: TENANT_ID, webhookEndpointID, idempotency });
  return { table, audit, secrets, clock, created, claims, rotate };
}

const codeOf = (error: unknown) => (error instanceof AppException ? { status: error.status, code: error.code } : error);

describe('RotateWebhookEndpointSecretUseCase', () => {
  it('answers a new secret and keeps the replaced one, sealed, signing for the grace period by the clock', async () => {
    const { rotate, table, secrets, clock, created } = await setUp();
    const rotated = await rotate();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.previousSecretExpiresAt).toBe(new Date(clock.now().getTime() + 24 * 3_600_000).toISOString());
    const [row] = table.rows;
    expect(secrets.open(created.webhookEndpointID, row.sealedSecret)).toBe(rotated.secret);
    expect(secrets.open(created.webhookEndpointID, row.previousSealedSecret!)).toBe(created.secret);
  });

  it('retires the replaced secret at once when the grace is 0', async () => {
    const { rotate, table } = await setUp({ graceHours: 0 });
    const rotated = await rotate();
    expect(rotated.previousSecretExpiresAt).toBeNull();
    expect(table.rows[0].previousSealedSecret).toBeNull();
  });

  it('records webhookEndpoint.secretRotated in the transaction of the rotation, without either secret', async () => {
    const { rotate, audit, table, created } = await setUp();
    const rotated = await rotate();
    expect(audit.records).toEqual([
      {
        runner: table.runner,
        tenantID: TENANT_ID,
        record: { action: 'webhookEndpoint.secretRotated', targetID: created.webhookEndpointID, summary: { previousValidUntil: rotated.previousSecretExpiresAt } },
      },
    ]);
    expect(JSON.stringify(audit.records)).not.toContain('whsec_');
  });

  it('claims the Idempotency-Key after the access check; answers 404 1960 for an endpoint absent from the tenant', async () => {
    const { rotate, claims, audit } = await setUp();
    await expect(rotate('00000000-0000-4000-8000-000000000000').catch(codeOf)).resolves.toEqual({ status: 404, code: 1960 });
    expect(claims).toEqual([1]);
    expect(audit.records).toEqual([]);
  });

  it('rotates nothing for a caller the access check refuses', async () => {
    const { rotate, table, claims } = await setUp({ refusal: 'Forbidden' });
    await expect(rotate().catch(codeOf)).resolves.toEqual({ status: 403, code: 1004 });
    expect(table.writes).toEqual([]);
    expect(claims).toEqual([]);
  });
});
