import { PendingDomainExpiry } from '@apps/plugins-helpdesk';
import { singleError, WebhookEventFixtures } from '@platform/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HelpdeskPlatform, startHelpdeskPlatform } from './helpdesk-platform';
import { eventually } from '../support/eventually';
import { describeStandardRefusals } from '../support/standard-refusals';

const LIMIT = 3;
const TTL_DAYS = 7;
const DAY_MS = 86_400_000;

describe('helpdesk domains: who adds, how many, and for how long a pending one holds its hostname', () => {
  let h: HelpdeskPlatform;
  let expiry: PendingDomainExpiry;

  beforeAll(async () => {
    h = await startHelpdeskPlatform({ HELPDESK_MAX_DOMAINS_PER_TENANT: String(LIMIT), HELPDESK_PENDING_DOMAIN_TTL_DAYS: String(TTL_DAYS) });
    expiry = h.platform.apps['plugins-helpdesk']!.get(PendingDomainExpiry);
  });
  afterAll(() => h.close());
  beforeEach(() => h.stub.recover());
  afterEach(() => vi.restoreAllMocks());

  const DOMAINS = '/helpdesk/v1/tenants/{tenantID}/helpdesk/domains';
  const add = (domainHostname: string, authorization: string, tenantID: string) =>
    h.platform.api.helpdesk.POST(DOMAINS, { params: { path: { tenantID } }, headers: { authorization }, body: { domainHostname } });
  const hostnamesOf = async (tenantID: string, authorization = h.helpdeskPlugin.authorization) => {
    const listed = await h.platform.api.helpdesk.GET(DOMAINS, { params: { path: { tenantID }, query: { perPage: '200' } }, headers: { authorization } });
    return listed.data!.data.map((domain: { domainHostname: string }) => domain.domainHostname);
  };
  const refresh = (domainHostname: string, authorization: string, tenantID: string) =>
    h.platform.api.helpdesk.POST(`${DOMAINS}/{domainHostname}/refresh`, { params: { path: { tenantID, domainHostname } }, headers: { authorization } });
  const remove = (domainHostname: string, authorization: string, tenantID: string) =>
    h.platform.api.helpdesk.DELETE(`${DOMAINS}/{domainHostname}`, { params: { path: { tenantID, domainHostname } }, headers: { authorization } });

  /** A tenant connected to the helpdesk plugin, acted on by the plugin. */
  const connectedTenant = async () => {
    const tenantID = await h.platform.fixtures.tenant();
    await h.platform.fixtures.connection(tenantID, h.helpdeskPlugin.pluginID);
    return tenantID;
  };
  /** Waits until `count` sessions of the apps wait for a lock. */
  const waitForLockWaiters = (count: number) =>
    eventually(async () => {
      const [{ waiting }] = await h.platform.dataSource.query(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      expect(waiting, 'sessions waiting for a lock').toBeGreaterThanOrEqual(count);
    }, undefined, 20);
  /** Makes the domain look added `days` ago. */
  const age = (hostname: string, days: number) =>
    h.platform.dataSource.query(`UPDATE helpdesk_domains SET created_at = now() - make_interval(days => $2) WHERE hostname = $1`, [hostname, days]);

  describe('who adds a domain', () => {
    // A member operator among them: 403 1004, and nothing at the provider.
    describeStandardRefusals({
      method: 'POST',
      path: DOMAINS,
      client: () => h.platform.api.helpdesk,
      tenantID: () => h.tenantID,
      body: () => ({ domainHostname: 'membro.quem.com.br' }),
      valid: () => h.owner,
      outsider: () => h.outsider,
      wrongRole: () => h.member,
      // Existence is not told apart from access on the helpdesk operations.
      unknownTenant: 403,
      written: async () => ({
        providerCalls: h.stub.calls.length,
        stored: await h.platform.dataSource.query('SELECT tenant_id FROM helpdesk_domains WHERE hostname = $1', ['membro.quem.com.br']),
      }),
    });

    it('lets the owner add the domain a member may not', async () => {
      expect((await add('membro.quem.com.br', h.owner, h.tenantID)).response.status).toBe(201);
    });

    it('leaves a member every other operation: list, refresh (operation 12) and remove (operation 13)', async () => {
      expect(await hostnamesOf(h.tenantID, h.member)).toContain('membro.quem.com.br');
      expect((await refresh('membro.quem.com.br', h.member, h.tenantID)).response.status).toBe(200);
      expect((await remove('membro.quem.com.br', h.member, h.tenantID)).response.status).toBe(200);
    });
  });

  describe('domains per tenant', () => {
    it(`answers 409 1972 past HELPDESK_MAX_DOMAINS_PER_TENANT (${LIMIT}), before the provider hears of it; a removal frees a place`, async () => {
      const tenantID = await connectedTenant();
      const plugin = h.helpdeskPlugin.authorization;
      for (const hostname of ['a.cota.com.br', 'b.cota.com.br', 'c.cota.com.br']) expect((await add(hostname, plugin, tenantID)).response.status).toBe(201);
      const calls = h.stub.calls.length;

      const refused = await add('d.cota.com.br', plugin, tenantID);
      expect(refused.response.status).toBe(409);
      expect(singleError(refused.error)).toEqual({
        statusCode: 409,
        error: 'DomainLimitReachedError',
        error_code: 1972,
        message: 'This help center has as many domains as it may have. Remove one before adding another.',
      });
      expect(h.stub.calls.length).toBe(calls);
      expect(await hostnamesOf(tenantID)).toEqual(['a.cota.com.br', 'b.cota.com.br', 'c.cota.com.br']);

      expect((await remove('a.cota.com.br', plugin, tenantID)).response.status).toBe(200);
      expect((await add('d.cota.com.br', plugin, tenantID)).response.status).toBe(201);
    });

    it('lets exactly one of many simultaneous adds take the last place', async () => {
      const tenantID = await connectedTenant();
      const plugin = h.helpdeskPlugin.authorization;
      await add('a.corrida.com.br', plugin, tenantID);
      await add('b.corrida.com.br', plugin, tenantID);
      // As many as the app's pool has connections (DATABASE_POOL_SIZE 5 in tests), so all can wait at once.
      const contenders = Array.from({ length: 5 }, (_, index) => `c${index}.corrida.com.br`);

      // Writes to the table wait behind the test's lock until every add has reached its write, so all
      // of them write at once when it is released: without the help center's lock each would count 2.
      const blocker = h.platform.dataSource.createQueryRunner();
      await blocker.connect();
      await blocker.startTransaction();
      let answers;
      try {
        await blocker.query('LOCK TABLE helpdesk_domains IN SHARE ROW EXCLUSIVE MODE');
        const pending = Promise.all(contenders.map((hostname) => add(hostname, plugin, tenantID)));
        await waitForLockWaiters(contenders.length);
        await blocker.commitTransaction();
        answers = await pending;
      } finally {
        if (blocker.isTransactionActive) await blocker.rollbackTransaction();
        await blocker.release();
      }

      const outcomes = answers.map((answer) => (answer.response.ok ? 201 : singleError(answer.error).error_code));
      expect(outcomes.filter((outcome) => outcome === 201)).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 1972)).toHaveLength(contenders.length - 1);
      expect(await hostnamesOf(tenantID)).toHaveLength(LIMIT);
      expect(contenders.filter((hostname) => h.stub.find(hostname))).toHaveLength(1);
    });

    it('counts per tenant: another tenant at its limit does not stop this one', async () => {
      const full = await connectedTenant();
      const other = await connectedTenant();
      for (const hostname of ['a.cheio.com.br', 'b.cheio.com.br', 'c.cheio.com.br']) await add(hostname, h.helpdeskPlugin.authorization, full);
      expect((await add('a.vazio.com.br', h.helpdeskPlugin.authorization, other)).response.status).toBe(201);
    });
  });

  describe('expiry of pending domains', () => {
    it(`removes a pending domain ${TTL_DAYS} days after it was added, at the provider and from the list; a millisecond earlier it stays`, async () => {
      const tenantID = await connectedTenant();
      const plugin = h.helpdeskPlugin.authorization;
      const added = await add('prazo.expira.com.br', plugin, tenantID);
      const providerID = added.data!.domain.domainProviderID;
      const [{ created_at: createdAt }] = await h.platform.dataSource.query('SELECT created_at FROM helpdesk_domains WHERE hostname = $1', ['prazo.expira.com.br']);

      h.setNow(new Date(createdAt.getTime() + TTL_DAYS * DAY_MS - 1));
      expect((await expiry.sweep()).removed).not.toContain('prazo.expira.com.br');
      expect(await hostnamesOf(tenantID)).toEqual(['prazo.expira.com.br']);

      // created_at has microseconds, a Date milliseconds: one millisecond past the truncated time is past the real one.
      h.setNow(new Date(createdAt.getTime() + TTL_DAYS * DAY_MS + 1));
      expect((await expiry.sweep()).removed).toContain('prazo.expira.com.br');
      expect(h.stub.find('prazo.expira.com.br')).toBeUndefined();
      expect(h.stub.calls.filter((call) => call.operation === 'delete' && call.id === providerID)).toEqual([expect.objectContaining({ status: 200 })]);
      expect(await hostnamesOf(tenantID)).toEqual([]);
      expect(singleError((await refresh('prazo.expira.com.br', plugin, tenantID)).error).error_code).toBe(1107);
    });

    it('leaves one helpdeskDomain.removed event for an expired domain, as a removal through the API does', async () => {
      const tenantID = await connectedTenant();
      const host = 'evento.expira.com.br';
      await add(host, h.helpdeskPlugin.authorization, tenantID);
      await age(host, TTL_DAYS + 1);
      h.setNow(new Date());
      expect((await expiry.sweep()).removed).toContain(host);
      const events = await new WebhookEventFixtures(h.platform.dataSource).eventsOf(tenantID);
      const [added] = events;
      expect(events).toEqual([
        added,
        {
          type: 'helpdeskDomain.removed',
          version: 1,
          orderingKey: `helpdeskDomain:${added.data.helpdeskDomainID}`,
          data: { helpdeskDomainID: added.data.helpdeskDomainID, domain: host },
          emittedBy: 'plugins-helpdesk',
        },
      ]);
      expect(added).toMatchObject({ type: 'helpdeskDomain.added', data: { domain: host } });
    });

    it('keeps a domain that turned active, however old, and a pending one not yet expired', async () => {
      const tenantID = await connectedTenant();
      const plugin = h.helpdeskPlugin.authorization;
      await add('ativo.expira.com.br', plugin, tenantID);
      h.stub.setStage('ativo.expira.com.br', 'active');
      expect((await refresh('ativo.expira.com.br', plugin, tenantID)).data!.domain.domainStatus).toBe('active');
      await add('recente.expira.com.br', plugin, tenantID);
      await add('antigo.expira.com.br', plugin, tenantID);
      await age('ativo.expira.com.br', 400);
      await age('recente.expira.com.br', TTL_DAYS - 1);
      await age('antigo.expira.com.br', TTL_DAYS + 1);

      const swept = await expiry.sweep();
      expect(swept.removed).toContain('antigo.expira.com.br');
      expect(swept.removed).not.toContain('ativo.expira.com.br');
      expect(await hostnamesOf(tenantID)).toEqual(['ativo.expira.com.br', 'recente.expira.com.br']);
      expect(h.stub.find('ativo.expira.com.br')).toBeDefined();
      expect(h.stub.find('recente.expira.com.br')).toBeDefined();
      expect(h.stub.find('antigo.expira.com.br')).toBeUndefined();
    });

    it('keeps an expired domain whose removal fails at the provider, and removes it at the next sweep', async () => {
      const tenantID = await connectedTenant();
      await add('teimoso.expira.com.br', h.helpdeskPlugin.authorization, tenantID);
      await age('teimoso.expira.com.br', TTL_DAYS + 1);

      h.stub.goDown('server-error');
      const failed = await expiry.sweep();
      expect(failed.failed).toContain('teimoso.expira.com.br');
      expect(await hostnamesOf(tenantID)).toEqual(['teimoso.expira.com.br']);
      expect(h.stub.find('teimoso.expira.com.br')).toBeDefined();

      h.stub.recover();
      expect((await expiry.sweep()).removed).toContain('teimoso.expira.com.br');
      expect(await hostnamesOf(tenantID)).toEqual([]);
      expect(h.stub.find('teimoso.expira.com.br')).toBeUndefined();
    });

    it('drops an expired domain the provider no longer has', async () => {
      const tenantID = await connectedTenant();
      await add('sumido.expira.com.br', h.helpdeskPlugin.authorization, tenantID);
      h.stub.forget('sumido.expira.com.br');
      await age('sumido.expira.com.br', TTL_DAYS + 1);
      expect((await expiry.sweep()).removed).toContain('sumido.expira.com.br');
      expect(await hostnamesOf(tenantID)).toEqual([]);
    });
  });

  describe('hostnames another tenant holds', () => {
    it("releases a hostname held by another tenant's pending domain once that domain expires", async () => {
      const squatter = await connectedTenant();
      const owner = await connectedTenant();
      const plugin = h.helpdeskPlugin.authorization;
      expect((await add('marca.reservada.com.br', plugin, squatter)).response.status).toBe(201);
      expect(singleError((await add('marca.reservada.com.br', plugin, owner)).error).error_code).toBe(1970);

      await age('marca.reservada.com.br', TTL_DAYS + 1);
      await expiry.sweep();
      const claimed = await add('marca.reservada.com.br', plugin, owner);
      expect(claimed.response.status).toBe(201);
      expect(await hostnamesOf(squatter)).toEqual([]);
      expect(await hostnamesOf(owner)).toEqual(['marca.reservada.com.br']);
      expect(h.stub.find('marca.reservada.com.br')).toMatchObject({ id: claimed.data!.domain.domainProviderID });
    });

    it('never releases a hostname another tenant verified, even when its domain is pending again', async () => {
      const holder = await connectedTenant();
      const other = await connectedTenant();
      const plugin = h.helpdeskPlugin.authorization;
      await add('verificado.reservado.com.br', plugin, holder);
      h.stub.setStage('verificado.reservado.com.br', 'active');
      await refresh('verificado.reservado.com.br', plugin, holder);
      // Its CNAME moved away later: pending again, yet its tenant proved it holds the name.
      h.stub.setStage('verificado.reservado.com.br', 'cname_missing');
      h.setNow(new Date(Date.now() + 60_000));
      expect((await refresh('verificado.reservado.com.br', plugin, holder)).data!.domain.domainStatus).toBe('pending');
      vi.restoreAllMocks();
      await age('verificado.reservado.com.br', 400);

      await expiry.sweep();
      expect(singleError((await add('verificado.reservado.com.br', plugin, other)).error).error_code).toBe(1970);
      expect(await hostnamesOf(holder)).toEqual(['verificado.reservado.com.br']);
    });
  });
});
