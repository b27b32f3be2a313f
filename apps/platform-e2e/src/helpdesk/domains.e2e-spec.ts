import { singleError, WebhookEventFixtures, withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryAsSent } from '../support/sent-as-is';
import { CNAME_TARGET, HelpdeskPlatform, startHelpdeskPlatform } from './helpdesk-platform';
import { describeStandardRefusals } from '../support/standard-refusals';

const CNAME_REASON = (host: string) =>
  `Falta o registro CNAME: no DNS do seu domínio, aponte ${host} para ${CNAME_TARGET}. A mudança pode levar alguns minutos para propagar.`;

const label63 = 'a'.repeat(63);
/** 63 + 1 + 63 + 1 + 63 + 1 + 57 + 4 = 253 characters. */
const HOSTNAME_253 = `${label63}.${label63}.${label63}.${'b'.repeat(57)}.com`;

describe('helpdesk domains: add and list (plugins-helpdesk)', () => {
  let h: HelpdeskPlatform;

  beforeAll(async () => {
    h = await startHelpdeskPlatform();
  });
  afterAll(() => h.close());
  beforeEach(() => h.stub.recover());

  /** Adds a domain; `body` replaces the whole body, for bodies outside the contract. */
  const add = (hostname: unknown, authorization: string | null = h.owner, tenantID = h.tenantID, body: object = { domainHostname: hostname }) =>
    h.platform.api.helpdesk.POST('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains', {
      params: { path: { tenantID } },
      headers: authorization === null ? {} : { authorization },
      body: body as never,
    });
  /** The tenant's webhook events about the domain `hostname`, oldest first. */
  const eventsAbout = async (hostname: string) =>
    (await new WebhookEventFixtures(h.platform.dataSource).eventsOf(h.tenantID)).filter((event) => event.data.domain === hostname);
  const list = (authorization: string | null = h.owner, tenantID = h.tenantID, query = '') =>
    h.platform.api.helpdesk.GET('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains', {
      params: { path: { tenantID }, query: queryAsSent(query) },
      headers: authorization === null ? {} : { authorization },
    });

  describe('POST /helpdesk/v1/tenants/{tenantID}/helpdesk/domains', () => {
    it('registers the hostname at the provider and stores it pending, with the CNAME to make', async () => {
      const response = await add('ajuda.acme-atendimento.com.br');
      expect(response.response.status).toBe(201);
      const atProvider = h.stub.find('ajuda.acme-atendimento.com.br');
      expect(atProvider).toMatchObject({ status: 'pending', ssl: { status: 'initializing' } });
      expect(response.data!).toEqual({
        cnameTarget: CNAME_TARGET,
        domain: {
          domainHostname: 'ajuda.acme-atendimento.com.br',
          domainProviderID: atProvider!.id,
          domainStatus: 'pending',
          lastCheckedAt: expect.any(String),
          verifiedAt: null,
        },
        statusReason: CNAME_REASON('ajuda.acme-atendimento.com.br'),
      });
      expect(new Date(response.data!.domain.lastCheckedAt!).toISOString()).toBe(response.data!.domain.lastCheckedAt);
    });

    it('leaves exactly one helpdeskDomain.added event, with the stored status', async () => {
      const host = 'eventos.acme-atendimento.com.br';
      expect((await add(host)).response.status).toBe(201);
      expect(await eventsAbout(host)).toEqual([
        {
          type: 'helpdeskDomain.added',
          version: 1,
          orderingKey: expect.stringMatching(/^helpdeskDomain:[0-9a-f-]{36}$/),
          data: { helpdeskDomainID: expect.any(String), domain: host, status: 'pending' },
          emittedBy: 'plugins-helpdesk',
        },
      ]);
      const [added] = await eventsAbout(host);
      expect(added.orderingKey).toBe(`helpdeskDomain:${added.data.helpdeskDomainID}`);
    });

    it('leaves no event when the add fails before it commits', async () => {
      const host = 'sem-evento.acme-atendimento.com.br';
      const response = await withTableMissing(h.platform.dataSource, 'webhook_events', () => add(host));
      expect(response.response.status).toBe(500);
      expect(await eventsAbout(host)).toEqual([]);
    });

    it('accepts the owner, the helpdesk plugin and its connection on the tenant; refuses a member with 403 1004', async () => {
      const calls = h.stub.calls.length;
      const byMember = await add('membro.acme-atendimento.com.br', h.member);
      expect(byMember.response.status).toBe(403);
      expect(singleError(byMember.error)).toEqual({ statusCode: 403, error: 'ForbiddenError', error_code: 1004, message: 'You do not have access to this resource.' });
      expect(h.stub.calls.length).toBe(calls);
      expect((await add('membro.acme-atendimento.com.br', h.owner)).response.status).toBe(201);
      expect((await add('plugin.acme-atendimento.com.br', h.helpdeskPlugin.authorization)).response.status).toBe(201);
      expect((await add('conexao.acme-atendimento.com.br', h.connection.authorization)).response.status).toBe(201);
    });

    it('stores and registers upper-case hostnames in lower case', async () => {
      const response = await add('SUPORTE.Acme-Atendimento.COM.BR');
      expect(response.response.status).toBe(201);
      expect(response.data!.domain.domainHostname).toBe('suporte.acme-atendimento.com.br');
      expect(h.stub.find('suporte.acme-atendimento.com.br')).toBeDefined();
    });

    it('stores and registers internationalised hostnames in punycode', async () => {
      const response = await add('central.açaí-do-pará.com.br');
      expect(response.response.status).toBe(201);
      expect(response.data!.domain.domainHostname).toBe('central.xn--aa-do-par-81a1d2d.com.br');
      expect(h.stub.find('central.xn--aa-do-par-81a1d2d.com.br')).toBeDefined();
    });

    it('accepts a hostname of 253 characters', async () => {
      const response = await add(HOSTNAME_253);
      expect(response.response.status).toBe(201);
      expect(response.data!.domain.domainHostname).toBe(HOSTNAME_253);
    });

    it('refuses 254 characters with 400 1002 naming domainHostname, before the provider hears of it', async () => {
      const calls = h.stub.calls.length;
      const response = await add(`c${HOSTNAME_253}`);
      expect(response.response.status).toBe(400);
      expect(singleError(response.error)).toEqual({
        statusCode: 400,
        error: 'RequestValidationError',
        error_code: 1002,
        message: 'Invalid request data.',
        fields: [
          {
            field: 'domainHostname',
            received: `c${HOSTNAME_253}`,
            allowed: 'hostname of 1-253 characters: two or more dot-separated labels of 1-63 letters, digits or inner hyphens',
          },
        ],
      });
      expect(h.stub.calls.length).toBe(calls);
    });

    it.each([
      ['empty', ''],
      ['a single label', 'intranet'],
      ['an underscore', 'aju_da.acme.com.br'],
      ['a trailing dot', 'ajuda.acme.com.br.'],
      ['a URL', 'https://ajuda.acme.com.br'],
      ['an IP address', '10.0.0.1'],
    ])('refuses %s (400 1002)', async (_, hostname) => {
      const response = await add(hostname);
      expect(response.response.status).toBe(400);
      expect(singleError(response.error).fields).toEqual([expect.objectContaining({ field: 'domainHostname', received: hostname })]);
    });

    it('refuses a missing hostname, a number and unknown body fields (400 1002)', async () => {
      const missing = await add(undefined, h.owner, h.tenantID, {});
      expect(singleError(missing.error).fields).toEqual([expect.objectContaining({ field: 'domainHostname', received: 'undefined' })]);
      const number = await add(42);
      expect(singleError(number.error).fields).toEqual([expect.objectContaining({ field: 'domainHostname', received: '42' })]);
      const extra = await add('extra.acme.com.br', h.owner, h.tenantID, { domainHostname: 'extra.acme.com.br', domainStatus: 'active' });
      expect(singleError(extra.error).fields).toEqual([{ field: 'domainStatus', received: 'active', allowed: 'no such field' }]);
    });

    it('refuses a hostname another tenant already has: 409 1970, and the provider is not asked', async () => {
      const otherTenantID = await h.platform.fixtures.tenant();
      await h.platform.fixtures.connection(otherTenantID, h.helpdeskPlugin.pluginID);
      expect((await add('faq.globex.com.br', h.helpdeskPlugin.authorization, otherTenantID)).response.status).toBe(201);
      const calls = h.stub.calls.length;

      const response = await add('FAQ.globex.com.br');
      expect(response.response.status).toBe(409);
      expect(singleError(response.error)).toEqual({
        statusCode: 409,
        error: 'DomainHostnameTakenError',
        error_code: 1970,
        message: 'This hostname is already registered to a help center.',
      });
      expect(h.stub.calls.length).toBe(calls);
    });

    it('refuses a hostname the help center already has (409 1970)', async () => {
      expect((await add('duas-vezes.acme.com.br')).response.status).toBe(201);
      expect(singleError((await add('duas-vezes.acme.com.br')).error).error_code).toBe(1970);
    });

    it('answers 422 1971 when the provider refuses the name, and stores nothing', async () => {
      const response = await add('ajuda.example.com');
      expect(response.response.status).toBe(422);
      expect(singleError(response.error)).toEqual({
        statusCode: 422,
        error: 'DomainHostnameRefusedError',
        error_code: 1971,
        message: 'The domain provisioning provider does not accept this hostname.',
      });
      const hostnames = (await list(h.owner, h.tenantID, '?perPage=200')).data!.data.map((domain: { domainHostname: string }) => domain.domainHostname);
      expect(hostnames).not.toContain('ajuda.example.com');
    });

    it.each(['server-error', 'envelope-error', 'malformed', 'hang', 'reset'] as const)(
      'answers 502 1122 when the provider fails (%s), stores nothing, and the hostname can be added afterwards',
      async (mode) => {
        const hostname = `falha-${mode}.acme.com.br`;
        h.stub.failNext(mode);
        const response = await add(hostname);
        expect(response.response.status).toBe(502);
        expect(singleError(response.error)).toEqual({
          statusCode: 502,
          error: 'DomainProvisioningError',
          error_code: 1122,
          message: 'The domain provisioning provider failed to answer. Try again in a moment.',
        });
        const rows = await h.platform.dataSource.query('SELECT 1 FROM helpdesk_domains WHERE hostname = $1', [hostname]);
        expect(rows).toEqual([]);
        expect((await add(hostname)).response.status).toBe(201);
      },
    );

    it('takes over the provider record of a hostname the provider already holds for this zone', async () => {
      const first = await add('orfao.acme.com.br');
      // The entry is lost on our side (an add whose answer never came back), the provider keeps it.
      await h.platform.dataSource.query('DELETE FROM helpdesk_domains WHERE hostname = $1', ['orfao.acme.com.br']);
      const again = await add('orfao.acme.com.br');
      expect(again.response.status).toBe(201);
      expect(again.data!.domain.domainProviderID).toBe(first.data!.domain.domainProviderID);
    });
  });

  describe('GET /helpdesk/v1/tenants/{tenantID}/helpdesk/domains', () => {
    it('lists the help center domains by hostname, with every field', async () => {
      const tenantID = await h.platform.fixtures.tenant();
      await h.platform.fixtures.connection(tenantID, h.helpdeskPlugin.pluginID);
      const plugin = h.helpdeskPlugin.authorization;
      const created = await add('zeta.lista.com.br', plugin, tenantID);
      await add('alfa.lista.com.br', plugin, tenantID);

      const response = await list(plugin, tenantID);
      expect(response.response.status).toBe(200);
      expect(response.data!.data.map((domain: { domainHostname: string }) => domain.domainHostname)).toEqual(['alfa.lista.com.br', 'zeta.lista.com.br']);
      expect(response.data!.data[1]).toEqual(created.data!.domain);
      expect(response.data!.meta).toEqual({ count: 2, currentPage: 1, hasMore: false, perPage: 20, totalCount: 2, totalPages: 1 });
    });

    it('pages with 206 while more pages exist, and an empty page past the end', async () => {
      const tenantID = await h.platform.fixtures.tenant();
      await h.platform.fixtures.connection(tenantID, h.helpdeskPlugin.pluginID);
      const plugin = h.helpdeskPlugin.authorization;
      await add('a.pagina.com.br', plugin, tenantID);
      await add('b.pagina.com.br', plugin, tenantID);
      const first = await list(plugin, tenantID, '?perPage=1');
      expect(first.response.status).toBe(206);
      expect(first.data!.data.map((domain: { domainHostname: string }) => domain.domainHostname)).toEqual(['a.pagina.com.br']);
      const last = await list(plugin, tenantID, '?perPage=1&page=2');
      expect(last.response.status).toBe(200);
      expect(last.data!.data.map((domain: { domainHostname: string }) => domain.domainHostname)).toEqual(['b.pagina.com.br']);
      const past = await list(plugin, tenantID, '?perPage=1&page=9007199254740991');
      expect({ status: past.response.status, body: past.data }).toMatchObject({ status: 200, body: { data: [] } });
      const invalid = await list(plugin, tenantID, '?perPage=201');
      expect(singleError(invalid.error).fields).toEqual([{ field: 'perPage', received: '201', allowed: 'integer 1-200' }]);
    });

    it('lists nothing for a connected tenant without a help center yet', async () => {
      const tenantID = await h.platform.fixtures.tenant();
      await h.platform.fixtures.connection(tenantID, h.helpdeskPlugin.pluginID);
      const response = await list(h.helpdeskPlugin.authorization, tenantID);
      expect(response.data!).toEqual({ data: [], meta: { count: 0, currentPage: 1, hasMore: false, perPage: 20, totalCount: 0, totalPages: 0 } });
    });
  });

  describeStandardRefusals({
    method: 'GET',
    path: '/helpdesk/v1/tenants/{tenantID}/helpdesk/domains',
    client: () => h.platform.api.helpdesk,
    tenantID: () => h.tenantID,
    valid: () => h.owner,
    outsider: () => h.outsider,
    // The helpdesk plugin with a wrong secret.
    invalid: () => [`Plugin ${Buffer.from(`${h.helpdeskPlugin.pluginID}:wrong`).toString('base64')}`],
    // Whoever asks (the owner here; the plugin below): existence is not told apart from access.
    unknownTenant: 403,
  });

  describe('authentication and access, in the check order of docs/http-conventions.md', () => {
    const expectError = (answer: { response: Response; error?: unknown }, status: number, code: number) => {
      expect({ status: answer.response.status, code: singleError(answer.error).error_code }).toEqual({ status, code });
    };

    it('answers 400 1001 for an empty tenantID', async () => {
      const response = await h.platform.api.helpdesk.POST('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains/{domainHostname}/refresh', {
        params: { path: { tenantID: '', domainHostname: 'ajuda.acme.com.br' } },
      });
      expect(singleError(response.error)).toEqual({ statusCode: 400, error: 'MissingTenantIDError', error_code: 1001, message: 'tenantID is required.' });
    });

    it('answers 403 1004 to another plugin, installed on the tenant or not', async () => {
      const other = await h.platform.fixtures.plugin();
      expectError(await list(other.authorization), 403, 1004);
      const otherConnection = await h.platform.fixtures.connection(h.tenantID, other.pluginID);
      expectError(await list(other.authorization), 403, 1004);
      expectError(await list(otherConnection.authorization), 403, 1004);
    });

    it("answers 403 1004 to the helpdesk plugin's connection of another tenant", async () => {
      const otherTenantID = await h.platform.fixtures.tenant();
      const otherConnection = await h.platform.fixtures.connection(otherTenantID, h.helpdeskPlugin.pluginID);
      expectError(await list(otherConnection.authorization), 403, 1004);
      expect((await list(otherConnection.authorization, otherTenantID)).response.status).toBe(200);
    });

    it('answers 403 1004 for a tenant that does not exist, whoever asks', async () => {
      const unknown = '3f0e9a4c-5b1d-4c7e-8a2f-9d6b1e0c4a7b';
      expectError(await list(h.helpdeskPlugin.authorization, unknown), 403, 1004);
    });

    it('answers 422 1000 to a member of a tenant without the helpdesk connection, and to the helpdesk plugin there', async () => {
      const tenantID = await h.platform.fixtures.tenant();
      const operator = await h.platform.fixtures.operator();
      await h.platform.fixtures.membership(tenantID, operator.operatorID, 'member');
      const response = await list(`Bearer ${await h.platform.tokenFor(operator.operatorID)}`, tenantID);
      expect(response.response.status).toBe(422);
      expect(singleError(response.error)).toEqual({
        statusCode: 422,
        error: 'TenantNotConnectedError',
        error_code: 1000,
        message: 'This tenant is not connected to the plugin.',
      });
      expectError(await list(h.helpdeskPlugin.authorization, tenantID), 422, 1000);
      expectError(await add('nao-conectado.acme.com.br', h.helpdeskPlugin.authorization, tenantID), 422, 1000);
    });

    it('answers 403 before 422: a stranger never learns whether a tenant is connected', async () => {
      const tenantID = await h.platform.fixtures.tenant();
      const other = await h.platform.fixtures.plugin();
      expectError(await list(h.outsider, tenantID), 403, 1004);
      expectError(await list(other.authorization, tenantID), 403, 1004);
    });

    it('answers 422 1000 once the helpdesk connection is removed, at once', async () => {
      const tenantID = await h.platform.fixtures.tenant();
      const operator = await h.platform.fixtures.operator();
      await h.platform.fixtures.membership(tenantID, operator.operatorID, 'owner');
      const connection = await h.platform.fixtures.connection(tenantID, h.helpdeskPlugin.pluginID);
      const bearer = `Bearer ${await h.platform.tokenFor(operator.operatorID)}`;
      expect((await list(bearer, tenantID)).response.status).toBe(200);
      await h.platform.dataSource.query(`UPDATE plugin_connections SET status = 'removed', removed_at = now() WHERE id = $1`, [connection.pluginConnectionID]);
      expectError(await list(bearer, tenantID), 422, 1000);
    });

    it('answers 422 1000 to everyone while no plugin has the configured helpdesk URN', async () => {
      await h.platform.dataSource.query(`UPDATE plugins SET urn = 'urn:plugin:helpdesk:renamed' WHERE id = $1`, [h.helpdeskPlugin.pluginID]);
      const lone = await startHelpdeskPlatform();
      try {
        await lone.platform.dataSource.query(`UPDATE plugins SET urn = 'urn:plugin:other' WHERE id = $1`, [lone.helpdeskPlugin.pluginID]);
        const listLone = (authorization: string) =>
          lone.platform.api.helpdesk.GET('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains', { params: { path: { tenantID: lone.tenantID } }, headers: { authorization } });
        expectError(await listLone(lone.owner), 422, 1000);
        expectError(await listLone(lone.helpdeskPlugin.authorization), 403, 1004);
      } finally {
        await lone.close();
        await h.platform.dataSource.query(`UPDATE plugins SET urn = 'urn:plugin:helpdesk' WHERE id = $1`, [h.helpdeskPlugin.pluginID]);
      }
    });
  });
});
