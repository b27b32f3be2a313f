import { createPluginsHelpdeskApp, HostnameDirectory, PluginsHelpdeskConfig } from '@apps/plugins-helpdesk';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/config';
import { singleError, TEST_REDIS_URL, WebhookEventFixtures, withTableMissing } from '@platform/testing';
import Redis from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HelpdeskPlatform, startHelpdeskPlatform } from './helpdesk-platform';
import { describeStandardRefusals } from '../support/standard-refusals';

/** Operation 13 (docs/helpdesk-domains.md, Remove). */
describe('DELETE /helpdesk/v1/tenants/{tenantID}/helpdesk/domains/{domainHostname} (operation 13)', () => {
  let h: HelpdeskPlatform;

  beforeAll(async () => {
    h = await startHelpdeskPlatform();
  });
  afterAll(() => h.close());
  beforeEach(() => h.stub.recover());

  const add = async (hostname: string, tenantID = h.tenantID) => {
    const { response, data } = await h.platform.api.helpdesk.POST('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains', {
      params: { path: { tenantID } },
      headers: { authorization: h.helpdeskPlugin.authorization },
      body: { domainHostname: hostname },
    });
    expect(response.status).toBe(201);
    return data!;
  };
  const remove = (domainHostname: string, authorization: string | null = h.owner, tenantID = h.tenantID) =>
    h.platform.api.helpdesk.DELETE('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains/{domainHostname}', {
      params: { path: { tenantID, domainHostname } },
      headers: authorization === null ? {} : { authorization },
    });
  /** The tenant's webhook events about the domain `hostname`, oldest first. */
  const eventsAbout = async (hostname: string) =>
    (await new WebhookEventFixtures(h.platform.dataSource).eventsOf(h.tenantID)).filter((event) => event.data.domain === hostname);
  const stored = async (hostname: string) => (await h.platform.dataSource.query('SELECT id FROM helpdesk_domains WHERE hostname = $1', [hostname])).length === 1;

  it('deletes the custom hostname at the provider, then drops the entry', async () => {
    const host = 'remover.acme-atendimento.com.br';
    const added = await add(host);
    const response = await remove(host);
    expect(response.response.status).toBe(200);
    expect(response.data!).toEqual({ deleted: true, domainHostname: host });
    expect(h.stub.find(host)).toBeUndefined();
    expect(h.stub.calls.at(-1)).toMatchObject({ operation: 'delete', id: added.domain.domainProviderID, status: 200 });
    expect(await stored(host)).toBe(false);
    const list = await h.platform.api.helpdesk.GET('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains', { params: { path: { tenantID: h.tenantID } }, headers: { authorization: h.owner } });
    expect(list.data!.data.map((domain: { domainHostname: string }) => domain.domainHostname)).not.toContain(host);
    // Gone: a second removal is 404, and the hostname can be added again (by anyone).
    expect(singleError((await remove(host)).error).error_code).toBe(1107);
    await add(host);
  });

  it('leaves exactly one helpdeskDomain.removed event, after the domain\'s earlier ones', async () => {
    const host = 'eventos.remocao.com.br';
    await add(host);
    const [added] = await eventsAbout(host);
    expect((await remove(host)).response.status).toBe(200);
    expect(await eventsAbout(host)).toEqual([
      added,
      {
        type: 'helpdeskDomain.removed',
        version: 1,
        orderingKey: `helpdeskDomain:${added.data.helpdeskDomainID}`,
        data: { helpdeskDomainID: added.data.helpdeskDomainID, domain: host },
        emittedBy: 'plugins-helpdesk',
      },
    ]);
  });

  it('keeps the entry, and leaves no event, when the removal cannot commit', async () => {
    const host = 'sem-evento.remocao.com.br';
    await add(host);
    const before = await eventsAbout(host);
    const response = await withTableMissing(h.platform.dataSource, 'webhook_events', () => remove(host));
    expect(response.response.status).toBe(500);
    expect(await stored(host)).toBe(true);
    expect(await eventsAbout(host)).toEqual(before);
  });

  it('accepts each profile, and the hostname in any case', async () => {
    await add('membro.remocao.com.br');
    await add('plugin.remocao.com.br');
    await add('conexao.remocao.com.br');
    expect((await remove('MEMBRO.remocao.com.br', h.member)).data).toEqual({ deleted: true, domainHostname: 'membro.remocao.com.br' });
    expect((await remove('plugin.remocao.com.br', h.helpdeskPlugin.authorization)).response.status).toBe(200);
    expect((await remove('conexao.remocao.com.br', h.connection.authorization)).response.status).toBe(200);
  });

  it('counts a hostname the provider no longer has as deleted there', async () => {
    const host = 'ja-removido.acme-atendimento.com.br';
    await add(host);
    h.stub.forget(host);
    const response = await remove(host);
    expect(response.data!).toEqual({ deleted: true, domainHostname: host });
    expect(h.stub.calls.at(-1)).toMatchObject({ operation: 'delete', status: 404 });
    expect(await stored(host)).toBe(false);
  });

  it('finds the provider record by name when the entry has no provider id (an add stopped half-way)', async () => {
    const host = 'meio-caminho.acme-atendimento.com.br';
    await add(host);
    await h.platform.dataSource.query('UPDATE helpdesk_domains SET provider_id = NULL WHERE hostname = $1', [host]);
    expect((await remove(host)).response.status).toBe(200);
    expect(h.stub.find(host)).toBeUndefined();
    expect(await stored(host)).toBe(false);
  });

  describe('order: provider first, then the entry', () => {
    it.each(['server-error', 'hang', 'reset', 'envelope-error'] as const)(
      'a provider failure (%s) is 502 1122 and the entry stays, at the provider too',
      async (mode) => {
        const host = `fica-${mode}.acme-atendimento.com.br`;
        await add(host);
        h.stub.failNext(mode, { operations: ['delete'] });
        const response = await remove(host);
        expect(response.response.status).toBe(502);
        expect(singleError(response.error)).toEqual({
          statusCode: 502,
          error: 'DomainProvisioningError',
          error_code: 1122,
          message: 'The domain provisioning provider failed to answer. Try again in a moment.',
        });
        expect(await stored(host)).toBe(true);
        // Repeating the call once the provider is back finishes the job.
        expect((await remove(host)).response.status).toBe(200);
        expect(await stored(host)).toBe(false);
      },
    );

    it('the entry is still there while the provider deletes, and dropped only after its answer', async () => {
      const host = 'ordem.acme-atendimento.com.br';
      await add(host);
      const held = h.stub.holdNext('delete');
      const pending = remove(host);
      await held.reached;
      expect(await stored(host)).toBe(true);
      expect(h.stub.find(host)).toBeDefined();
      held.release();
      expect((await pending).response.status).toBe(200);
      expect(await stored(host)).toBe(false);
    });
  });

  describe('the hostname stops resolving to the help center at once, on every instance', () => {
    let second: NestFastifyApplication;

    beforeAll(async () => {
      second = await createPluginsHelpdeskApp(loadConfig(PluginsHelpdeskConfig, h.platform.env));
      await second.init();
    });
    afterAll(() => second.close());

    it('forgets the cached hostname everywhere when it is removed through either instance', async () => {
      const host = 'cache.acme-atendimento.com.br';
      await add(host);
      const first = h.platform.apps['plugins-helpdesk']!.get(HostnameDirectory);
      const other = second.get(HostnameDirectory);
      const entry = await other.resolve(host);
      expect(entry).toEqual({ tenantID: h.tenantID, helpCenterID: expect.any(String) });

      // Point the row elsewhere behind the cache's back: the first instance, which never looked the
      // hostname up itself, still answers the cached entry, so the cache is real and shared.
      const elsewhereTenantID = await h.platform.fixtures.tenant();
      const [{ id: elsewhereHelpCenterID }] = await h.platform.dataSource.query('INSERT INTO help_centers (tenant_id) VALUES ($1) RETURNING id', [elsewhereTenantID]);
      await h.platform.dataSource.query('UPDATE helpdesk_domains SET tenant_id = $2, help_center_id = $3 WHERE hostname = $1', [host, elsewhereTenantID, elsewhereHelpCenterID]);
      expect(await first.resolve(host)).toEqual(entry);
      await h.platform.dataSource.query('UPDATE helpdesk_domains SET tenant_id = $2, help_center_id = $3 WHERE hostname = $1', [host, entry!.tenantID, entry!.helpCenterID]);

      expect((await remove(host)).response.status).toBe(200);
      expect(await other.resolve(host)).toBeUndefined();
      expect(await first.resolve(host)).toBeUndefined();
    });

    it('does not let a lookup racing the removal put the removed hostname back in the cache', async () => {
      const host = 'corrida-cache.acme-atendimento.com.br';
      await add(host);
      const other = second.get(HostnameDirectory);
      const entry = await other.resolve(host);
      expect((await remove(host)).response.status).toBe(200);

      // A lookup that read the row just before the removal committed, and fills the cache just after it.
      await h.platform.dataSource.query('INSERT INTO helpdesk_domains (tenant_id, help_center_id, hostname) VALUES ($1, $2, $3)', [
        entry!.tenantID,
        entry!.helpCenterID,
        host,
      ]);
      expect(await other.resolve(host)).toEqual(entry);
      // The fill was refused (it would outlive the removal's tombstone otherwise).
      const redis = new Redis(TEST_REDIS_URL);
      try {
        expect(await redis.exists(`helpdesk:v2:hostname:{h:${host}}`)).toBe(0);
      } finally {
        redis.disconnect();
      }
      await h.platform.dataSource.query('DELETE FROM helpdesk_domains WHERE hostname = $1', [host]);
      // Had that late fill reached the cache, the removed hostname would resolve again here.
      expect(await other.resolve(host)).toBeUndefined();
    });

    it('routes no hostname by an entry written to Redis by anyone else: PostgreSQL answers', async () => {
      const host = 'forjado.acme-atendimento.com.br';
      await add(host);
      const directory = second.get(HostnameDirectory);
      const entry = await directory.resolve(host);
      const elsewhere = JSON.stringify({ tenantID: await h.platform.fixtures.tenant(), helpCenterID: entry!.helpCenterID });
      const redis = new Redis(TEST_REDIS_URL);
      try {
        for (const forged of [elsewhere, `${Date.now() + 60_000}.${'A'.repeat(43)}.${elsewhere}`]) {
          await redis.set(`helpdesk:v2:hostname:{h:${host}}`, forged, 'EX', 60);
          expect(await directory.resolve(host)).toEqual(entry);
        }
      } finally {
        redis.disconnect();
      }
    });
  });

  describeStandardRefusals({
    method: 'DELETE',
    path: '/helpdesk/v1/tenants/{tenantID}/helpdesk/domains/{domainHostname}',
    client: () => h.platform.api.helpdesk,
    tenantID: () => h.tenantID,
    pathParams: () => ({ domainHostname: 'ajuda.acme.com.br' }),
    valid: () => h.owner,
    // A plugin installed on the tenant that is not the helpdesk plugin.
    outsider: async () => {
      const other = await h.platform.fixtures.plugin();
      await h.platform.fixtures.connection(h.tenantID, other.pluginID);
      return other.authorization;
    },
    unknownTenant: 403,
  });

  describe('errors', () => {
    it('400 1002 naming domainHostname for an invalid hostname', async () => {
      const response = await remove('ajuda..acme.com.br');
      expect(response.response.status).toBe(400);
      expect(singleError(response.error)).toMatchObject({ error_code: 1002, fields: [{ field: 'domainHostname', received: 'ajuda..acme.com.br' }] });
    });

    it('422 1000 for a tenant not connected to the helpdesk plugin, entry kept', async () => {
      const tenantID = await h.platform.fixtures.tenant();
      const connection = await h.platform.fixtures.connection(tenantID, h.helpdeskPlugin.pluginID);
      await add('desconectado.globex.com.br', tenantID);
      await h.platform.dataSource.query(`UPDATE plugin_connections SET status = 'removed' WHERE id = $1`, [connection.pluginConnectionID]);
      const response = await remove('desconectado.globex.com.br', h.helpdeskPlugin.authorization, tenantID);
      expect(response.response.status).toBe(422);
      expect(singleError(response.error)).toEqual({
        statusCode: 422,
        error: 'TenantNotConnectedError',
        error_code: 1000,
        message: 'This tenant is not connected to the plugin.',
      });
      expect(await stored('desconectado.globex.com.br')).toBe(true);
    });

    it("404 1107 for a hostname of another tenant's help center, which stays", async () => {
      const tenantID = await h.platform.fixtures.tenant();
      await h.platform.fixtures.connection(tenantID, h.helpdeskPlugin.pluginID);
      await add('outro.globex.com.br', tenantID);
      const response = await remove('outro.globex.com.br');
      expect(response.response.status).toBe(404);
      expect(singleError(response.error)).toEqual({
        statusCode: 404,
        error: 'HelpdeskNotFoundError',
        error_code: 1107,
        message: 'No help center answers on this address.',
      });
      expect(await stored('outro.globex.com.br')).toBe(true);
      expect(h.stub.find('outro.globex.com.br')).toBeDefined();
    });

    it('500 5999 without internals when the database fails', async () => {
      const host = 'banco-fora.acme-atendimento.com.br';
      await add(host);
      await withTableMissing(h.platform.dataSource, 'helpdesk_domains', async () => {
        const response = await remove(host);
        expect(response.response.status).toBe(500);
        expect(singleError(response.error)).toEqual({
          statusCode: 500,
          error: 'UnknownError',
          error_code: 5999,
          message: 'For some unknown reason your request has not succeeded.',
        });
      });
      expect(h.stub.find(host)).toBeDefined();
    });
  });
});
