import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HelpdeskPlatform, startHelpdeskPlatform } from '../helpdesk/helpdesk-platform';
import { expectReplayOf, postJson } from './idempotency-support';

/** Idempotency-Key on adding a help-center domain (plugins-helpdesk; docs/idempotency.md). */
describe('Idempotency-Key (plugins-helpdesk)', () => {
  let h: HelpdeskPlatform;

  beforeAll(async () => {
    h = await startHelpdeskPlatform();
  });
  afterAll(() => h.close());

  const add = (key: string | undefined, domainHostname: string, authorization = h.owner, tenantID = h.tenantID) =>
    postJson(`${h.platform.helpdeskUrl}/helpdesk/v1/tenants/${tenantID}/helpdesk/domains`, authorization, key, { domainHostname });
  const registrations = (hostname: string) => h.stub.calls.filter((call) => call.operation === 'create' && call.hostname === hostname).length;

  it('registers a retried domain once; the retry gets the first answer, marked as a replay', async () => {
    const key = randomUUID();
    const first = await add(key, 'suporte.idempotente.com.br');
    expect(first.status).toBe(201);
    expectReplayOf(first, await add(key, 'suporte.idempotente.com.br'));
    expect(registrations('suporte.idempotente.com.br')).toBe(1);
  });

  it('replays a refusal (409 1970) and refuses the key with another hostname (422 1980)', async () => {
    expect((await add(undefined, 'ocupado.idempotente.com.br')).status).toBe(201);
    const key = randomUUID();
    const taken = await add(key, 'ocupado.idempotente.com.br', h.connection.authorization);
    expect(taken.status).toBe(409);
    expectReplayOf(taken, await add(key, 'ocupado.idempotente.com.br', h.connection.authorization));

    const reused = await add(key, 'outro.idempotente.com.br', h.connection.authorization);
    expect(reused.status).toBe(422);
    expect(reused.json.errors[0]).toMatchObject({ error: 'IdempotencyKeyReusedError', error_code: 1980 });
    expect(registrations('outro.idempotente.com.br')).toBe(0);
  });

  it('keeps the plugin\'s and its connection\'s keys apart from an operator\'s', async () => {
    const key = randomUUID();
    const byOperator = await add(key, 'perfis.idempotente.com.br');
    expect(byOperator.status).toBe(201);
    const byPlugin = await add(key, 'perfis.idempotente.com.br', h.helpdeskPlugin.authorization);
    expect(byPlugin.status).toBe(409);
    expect(byPlugin.json.errors[0].error_code).toBe(1970);
    expect(byPlugin.headers.get('idempotent-replayed')).toBeNull();
  });

  it('checks access before the key: once the tenant is disconnected, a retry gets 422 1000, not the kept answer', async () => {
    const tenantID = await h.platform.fixtures.tenant();
    const connection = await h.platform.fixtures.connection(tenantID, h.helpdeskPlugin.pluginID);
    const { operatorID } = await h.platform.fixtures.operator();
    await h.platform.fixtures.membership(tenantID, operatorID, 'owner');
    const owner = `Bearer ${await h.platform.tokenFor(operatorID)}`;
    const key = randomUUID();
    expect((await add(key, 'acesso.idempotente.com.br', owner, tenantID)).status).toBe(201);

    await h.platform.dataSource.query(`UPDATE plugin_connections SET status = 'removed' WHERE id = $1`, [connection.pluginConnectionID]);
    const retried = await add(key, 'acesso.idempotente.com.br', owner, tenantID);
    expect(retried.status).toBe(422);
    expect(retried.json.errors[0].error_code).toBe(1000);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });
});
