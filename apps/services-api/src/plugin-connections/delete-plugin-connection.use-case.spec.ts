import type { ClientRedis } from '@nestjs/microservices';
import { OperatorPrincipal } from '@platform/auth';
import { DeletePluginConnection, DeletePluginConnectionPayload } from '@platform/contracts';
import type { PlatformMetrics } from '@platform/observability';
import { TransportClient } from '@platform/transport';
import { Observable, of, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { fake, FakeTenantAccess } from '@platform/testing';
import { DeletePluginConnectionUseCase } from './delete-plugin-connection.use-case';
import { PluginConnectionsClient } from './plugin-connections.client';

const tenantID = '5D1E0F3A-8C2B-4D6E-9F10-112233445566';
// Canonical, as the request rule (IsCanonicalUuid) hands it on.
const pluginConnectionID = '3b241101-e2bb-4255-8caf-4136c566a962';
const principal: OperatorPrincipal = { kind: 'operator', operatorID: '9c8b7a6d-5e4f-4321-8abc-def012345678' };

/**
 * The transport as core-tenants answers it: our TransportClient over a Redis
 * client whose replies the test gives (a reply, or the error payload
 * core-tenants sends back for a catalog error).
 */
function transportAnswering(answer: () => Observable<unknown>) {
  const sent: { pattern: string; payload: unknown }[] = [];
  const client = fake<ClientRedis>({
    send: <TResult>(pattern: string, payload: unknown) => {
      sent.push({ pattern, payload });
      return answer() as Observable<TResult>;
    },
  });
  const metrics = fake<PlatformMetrics>({ transportRequestEnded: () => undefined });
  return { sent, pluginConnections: new PluginConnectionsClient(new TransportClient(client, 1_000, metrics)) };
}

function accessGranting(refusal?: 'Forbidden' | 'TenantNotFound') {
  const fakeAccess = new FakeTenantAccess();
  fakeAccess.refusal = refusal;
  return { access: fakeAccess.asAccess(), requirements: () => fakeAccess.checks.map((check) => check.requirement) };
}

describe('DeletePluginConnectionUseCase (operation 1, services-api side)', () => {
  it('asks core-tenants to delete the connection of the checked tenant, owners only', async () => {
    const { access, requirements } = accessGranting();
    const { sent, pluginConnections } = transportAnswering(() => of({ deleted: true }));

    const reply = await new DeletePluginConnectionUseCase(access, pluginConnections).execute({ principal, tenantID, pluginConnectionID });

    expect(reply).toEqual({ deleted: true });
    expect(requirements()).toEqual([{ ownerOnly: true, tenantNotFoundIs404: true }]);
    const payload: DeletePluginConnectionPayload = { tenantID: tenantID.toLowerCase(), pluginConnectionID };
    expect(sent).toEqual([{ pattern: DeletePluginConnection.pattern, payload }]);
  });

  it('answers 502 5002 when core-tenants reports that the VM provider failed', async () => {
    const { access } = accessGranting();
    const { pluginConnections } = transportAnswering(() => throwError(() => ({ error_code: 5002 })));

    await expect(new DeletePluginConnectionUseCase(access, pluginConnections).execute({ principal, tenantID, pluginConnectionID })).rejects.toMatchObject({
      key: 'BadGateway',
      status: 502,
      code: 5002,
    });
  });

  it('answers 404 1054 when core-tenants finds no live connection', async () => {
    const { access } = accessGranting();
    const { pluginConnections } = transportAnswering(() => throwError(() => ({ error_code: 1054 })));

    await expect(new DeletePluginConnectionUseCase(access, pluginConnections).execute({ principal, tenantID, pluginConnectionID })).rejects.toMatchObject({
      status: 404,
      code: 1054,
    });
  });

  it('answers 503 5903 when the transport itself fails', async () => {
    const { access } = accessGranting();
    const { pluginConnections } = transportAnswering(() => throwError(() => new Error('connection lost')));

    await expect(new DeletePluginConnectionUseCase(access, pluginConnections).execute({ principal, tenantID, pluginConnectionID })).rejects.toMatchObject({
      status: 503,
      code: 5903,
    });
  });

  it('sends nothing when the caller is refused', async () => {
    const { access } = accessGranting('Forbidden');
    const { sent, pluginConnections } = transportAnswering(() => of({ deleted: true }));

    await expect(new DeletePluginConnectionUseCase(access, pluginConnections).execute({ principal, tenantID, pluginConnectionID })).rejects.toMatchObject({
      status: 403,
      code: 1004,
    });
    expect(sent).toEqual([]);
  });
});
