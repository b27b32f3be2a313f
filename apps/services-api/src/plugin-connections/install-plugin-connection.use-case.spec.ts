import type { ClientRedis } from '@nestjs/microservices';
import { OperatorPrincipal } from '@platform/auth';
import type { PlatformMetrics } from '@platform/observability';
import { TransportClient } from '@platform/transport';
import { Observable, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { fake, FakeTenantAccess } from '@platform/testing';
import { NO_IDEMPOTENCY_KEY } from '@platform/idempotency';
import { InstallPluginConnectionUseCase } from './install-plugin-connection.use-case';
import { PluginConnectionsClient } from './plugin-connections.client';

const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const pluginID = '11111111-0000-4000-8000-000000000001';
const owner: OperatorPrincipal = { kind: 'operator', operatorID: '9c8b7a6d-5e4f-4321-8abc-def012345678' };
const otherOwner: OperatorPrincipal = { kind: 'operator', operatorID: '1a2b3c4d-5e6f-4789-8abc-def012345678' };

/** What services-api sends core-tenants for each install. */
function installing() {
  const sent: Record<string, unknown>[] = [];
  const client = fake<ClientRedis>({
    send: <TResult>(_pattern: string, payload: unknown) => {
      sent.push(payload as Record<string, unknown>);
      return of({ pluginConnectionID: 'c', pluginConnectionToken: 't', pluginID, kind: 'plain' }) as Observable<TResult>;
    },
  });
  const metrics = fake<PlatformMetrics>({ transportRequestEnded: () => undefined });
  const useCase = new InstallPluginConnectionUseCase(new FakeTenantAccess().asAccess(), new PluginConnectionsClient(new TransportClient(client, 1_000, metrics)));
  return { sent, install: (principal: OperatorPrincipal, idempotencyKey?: string) => useCase.execute({ principal, tenantID, pluginID, idempotencyKey, idempotency: NO_IDEMPOTENCY_KEY }) };
}

describe('InstallPluginConnectionUseCase (services-api)', () => {
  it("sends the client's Idempotency-Key scoped to its operator, never the key itself", async () => {
    const { sent, install } = installing();
    await install(owner, 'key-1');
    await install(owner, 'key-1');
    await install(otherOwner, 'key-1');
    const keys = sent.map((payload) => payload.requestKey as string);
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(JSON.stringify(sent)).not.toContain('key-1');
  });

  it('sends no request key without an Idempotency-Key', async () => {
    const { sent, install } = installing();
    await install(owner);
    expect(sent[0].requestKey).toBeUndefined();
  });
});
