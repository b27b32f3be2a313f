import { grantTenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import { runWithRequestID } from '@platform/observability';
import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { WebhookEvents } from './webhook-events';
import { WebhookEventsRepository } from './webhook-events.repository';

const tenant = grantTenantScope('5D1E0F3A-8C2B-4D6E-9F10-112233445566');
const operatorID = '3b241101-e2bb-4255-8caf-4136c566a962';

/** A transaction's runner that keeps every statement it is given. */
function recordingRunner(): SqlRunner & { statements: { text: string; params: unknown[] }[] } {
  const statements: { text: string; params: unknown[] }[] = [];
  return {
    statements,
    query: async (text: string, params?: unknown[]) => {
      statements.push({ text, params: params ?? [] });
      return [];
    },
  };
}

function emitter(): WebhookEvents {
  // Appending never touches the pool: the caller's transaction runs the statement.
  return new WebhookEvents(new WebhookEventsRepository(Object.create(DataSource.prototype) as DataSource), 'core-tenants');
}

describe('WebhookEvents', () => {
  it("appends an ordered event in the caller's transaction, keyed by its subject, with the catalog's version and the request id", async () => {
    const runner = recordingRunner();
    await runWithRequestID('req-7', () =>
      emitter().emit(runner, tenant, {
        type: 'member.removed',
        subject: `member:${operatorID}`,
        data: { operatorID, role: 'member' },
      }),
    );
    expect(runner.statements).toHaveLength(1);
    const [tenantID, type, version, orderingKey, data, emittedBy, headers] = runner.statements[0].params;
    expect(runner.statements[0].text).toMatch(/^INSERT INTO webhook_events/);
    expect({ tenantID, type, version, orderingKey, emittedBy }).toEqual({
      tenantID: '5d1e0f3a-8c2b-4d6e-9f10-112233445566',
      type: 'member.removed',
      version: 1,
      orderingKey: `member:${operatorID}`,
      emittedBy: 'core-tenants',
    });
    expect(JSON.parse(data as string)).toEqual({ operatorID, role: 'member' });
    expect(JSON.parse(headers as string)).toMatchObject({ 'x-request-id': 'req-7' });
  });

  it('leaves the ordering key off an event type that needs no order', async () => {
    const runner = recordingRunner();
    await emitter().emit(runner, tenant, {
      type: 'webhook.test',
      subject: 'webhookEndpoint:1',
      data: { webhookEndpointID: operatorID, message: 'A test event sent on request.' },
    });
    expect(runner.statements[0].params[3]).toBeNull();
  });
});
