import { grantTenantScope } from '@platform/auth';
import { actAs, runWithRequestID } from '@platform/observability';
import { fake } from '@platform/testing-doubles';
import { describe, expect, it } from 'vitest';
import type { AuditEventsRepository, NewAuditEvent } from './audit-events.repository';
import { AuditTrail } from './audit-trail';

const tenant = grantTenantScope('5D1E0F3A-8C2B-4D6E-9F10-112233445566');
const operatorID = '3b241101-e2bb-4255-8caf-4136c566a962';
const transaction = { query: async () => [] };

function trail(): { trail: AuditTrail; appended: { tenantID: string; event: NewAuditEvent; runner: unknown }[] } {
  const appended: { tenantID: string; event: NewAuditEvent; runner: unknown }[] = [];
  const events = fake<AuditEventsRepository>({
    append: async (runner, scope, event) => {
      appended.push({ tenantID: scope.tenantID, event, runner });
    },
  });
  return { trail: new AuditTrail(events, 'services-api'), appended };
}

describe('AuditTrail', () => {
  it("records the authenticated actor, the request id and the action's target kind, in the caller's transaction", async () => {
    const { trail: audit, appended } = trail();
    await runWithRequestID('req-1', async () => {
      actAs(`operator:${operatorID}`);
      await audit.record(transaction, tenant, { action: 'campaignModel.created', targetID: 'model-1', summary: { name: 'order_update' } });
    });
    expect(appended).toEqual([
      {
        tenantID: '5d1e0f3a-8c2b-4d6e-9f10-112233445566',
        runner: transaction,
        event: {
          action: 'campaignModel.created',
          actorKind: 'operator',
          actorID: operatorID,
          requestID: 'req-1',
          targetKind: 'campaignModel',
          targetID: 'model-1',
          summary: { name: 'order_update' },
          recordedBy: 'services-api',
        },
      },
    ]);
  });

  it('refuses to record without an authenticated actor, so the action fails rather than commit unrecorded', async () => {
    const { trail: audit, appended } = trail();
    await expect(runWithRequestID('req-2', () => audit.record(transaction, tenant, { action: 'helpdeskDomain.removed', targetID: 'help.example.com' }))).rejects.toThrow(
      /no authenticated actor/,
    );
    expect(appended).toEqual([]);
  });

  it('refuses summary keys that look like secrets', async () => {
    const { trail: audit, appended } = trail();
    for (const key of ['pluginConnectionToken', 'password', 'verificationCode', 'tokenHash', 'apiKey']) {
      await expect(
        runWithRequestID('req-3', async () => {
          actAs(`operator:${operatorID}`);
          await audit.record(transaction, tenant, { action: 'pluginConnection.installed', targetID: 'c-1', summary: { [key]: 'x' } });
        }),
      ).rejects.toThrow(/looks like a secret/);
    }
    expect(appended).toEqual([]);
  });
});
