import { Clock } from '@platform/scheduling';
import { createPluginsHelpdeskApp, PluginsHelpdeskConfig } from '@apps/plugins-helpdesk';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/config';
import { createPluginsHelpdeskClient, PluginsHelpdeskClient } from '@platform/api-client';
import { CustomHostnameStage, singleError, WebhookEventFixtures, withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CNAME_TARGET, HelpdeskPlatform, startHelpdeskPlatform } from './helpdesk-platform';
import { describeStandardRefusals } from '../support/standard-refusals';

/** Operation 12 (docs/helpdesk-domains.md, Refresh), with the stub's hostnames moved stage by stage and time moved by the test. */
const DOMAINS = '/helpdesk/v1/tenants/{tenantID}/helpdesk/domains';

describe('POST /helpdesk/v1/tenants/{tenantID}/helpdesk/domains/{domainHostname}/refresh (operation 12)', () => {
  let h: HelpdeskPlatform;
  /** The test's own time line: every refresh of a domain is 10 s after the previous one unless a test says otherwise. */
  let now = Date.parse('2026-11-20T12:00:00.000Z');
  const tick = (ms = 10_000) => {
    now += ms;
    h.setNow(new Date(now));
    return new Date(now);
  };

  beforeAll(async () => {
    h = await startHelpdeskPlatform();
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.stub.recover();
    tick(60_000);
  });

  const add = async (hostname: string) => {
    const response = await h.platform.api.helpdesk.POST(DOMAINS, { params: { path: { tenantID: h.tenantID } }, headers: { authorization: h.owner }, body: { domainHostname: hostname } });
    expect(response.response.status).toBe(201);
    return response.data!;
  };
  const refresh = (domainHostname: string, authorization = h.owner, api: PluginsHelpdeskClient = h.platform.api.helpdesk, tenantID = h.tenantID) =>
    api.POST('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains/{domainHostname}/refresh', { params: { path: { tenantID, domainHostname } }, headers: { authorization } });
  /** The tenant's webhook events about the domain `hostname`, oldest first. */
  const eventsAbout = async (hostname: string) =>
    (await new WebhookEventFixtures(h.platform.dataSource).eventsOf(h.tenantID)).filter((event) => event.data.domain === hostname);
  const storedRow = async (hostname: string) =>
    (await h.platform.dataSource.query('SELECT provider_id, status, last_checked_at, verified_at FROM helpdesk_domains WHERE hostname = $1', [hostname]))[0];

  describe('while pending, statusReason says in pt-BR what is missing', () => {
    const host = 'estagios.acme-atendimento.com.br';
    const cases: [CustomHostnameStage, string][] = [
      ['cname_missing', `Falta o registro CNAME: no DNS do seu domínio, aponte ${host} para ${CNAME_TARGET}. A mudança pode levar alguns minutos para propagar.`],
      ['ownership_pending', `O CNAME foi encontrado; falta concluir a verificação de propriedade de ${host}. Aguarde alguns minutos e atualize de novo.`],
      ['certificate_validation', `Domínio verificado; falta validar o controle de ${host} para emitir o certificado TLS. Mantenha o CNAME no lugar.`],
      ['certificate_issuance', `Domínio verificado; o certificado TLS de ${host} está em emissão.`],
      ['certificate_deployment', `O certificado TLS de ${host} foi emitido e está sendo implantado na rede. Falta pouco.`],
      [
        'validation_timed_out',
        `A validação do certificado de ${host} expirou antes de o domínio apontar para ${CNAME_TARGET}. Confira o CNAME, remova o domínio e adicione-o de novo.`,
      ],
      [
        'issuance_timed_out',
        `A emissão do certificado TLS de ${host} excedeu o prazo do provedor. Atualize de novo em alguns minutos; se persistir, remova o domínio e adicione-o de novo.`,
      ],
      ['certificate_expired', `O certificado TLS de ${host} expirou e está sendo renovado.`],
      ['blocked', `O provedor bloqueou o domínio ${host}. Entre em contato com o suporte para liberá-lo.`],
    ];

    beforeAll(async () => {
      tick();
      await add(host);
    });

    it.each(cases)('stage %s', async (stage, reason) => {
      h.stub.setStage(host, stage);
      const checkedAt = tick();
      const response = await refresh(host);
      expect(response.response.status).toBe(200);
      expect(response.data!).toEqual({
        cnameTarget: CNAME_TARGET,
        domain: {
          domainHostname: host,
          domainProviderID: h.stub.find(host)!.id,
          domainStatus: 'pending',
          lastCheckedAt: checkedAt.toISOString(),
          verifiedAt: null,
        },
        statusReason: reason,
      });
    });
  });

  it('turns active only when the hostname and its certificate are both active, stamping verifiedAt once', async () => {
    const host = 'ativo.acme-atendimento.com.br';
    await add(host);
    h.stub.setStage(host, 'certificate_deployment');
    tick();
    expect((await refresh(host)).data!.domain).toMatchObject({ domainStatus: 'pending', verifiedAt: null });

    h.stub.advance(host);
    const activatedAt = tick();
    const active = await refresh(host);
    expect(active.data!).toMatchObject({
      domain: { domainStatus: 'active', lastCheckedAt: activatedAt.toISOString(), verifiedAt: activatedAt.toISOString() },
      statusReason: `Domínio ativo: a central de ajuda responde em https://${host} com certificado TLS válido.`,
    });

    const later = tick();
    const again = await refresh(host);
    expect(again.data!.domain).toMatchObject({ domainStatus: 'active', lastCheckedAt: later.toISOString(), verifiedAt: activatedAt.toISOString() });

    // The customer removes the CNAME: pending again, and verifiedAt still tells when it first turned active.
    h.stub.setStage(host, 'moved');
    tick();
    const moved = await refresh(host);
    expect(moved.data!).toMatchObject({
      domain: { domainStatus: 'pending', verifiedAt: activatedAt.toISOString() },
      statusReason: `O registro CNAME de ${host} deixou de apontar para ${CNAME_TARGET}. Restaure o CNAME para ${CNAME_TARGET} para voltar a servir a central de ajuda.`,
    });
    h.stub.setStage(host, 'active');
    tick();
    expect((await refresh(host)).data!.domain).toMatchObject({ domainStatus: 'active', verifiedAt: activatedAt.toISOString() });
  });

  it('leaves exactly one helpdeskDomain.statusChanged event per change of status, none for a check that changes nothing', async () => {
    const host = 'eventos.acme-atendimento.com.br';
    await add(host);
    const [added] = await eventsAbout(host);
    const changed = (previousStatus: string, status: string) => ({
      type: 'helpdeskDomain.statusChanged',
      version: 1,
      orderingKey: `helpdeskDomain:${added.data.helpdeskDomainID}`,
      data: { helpdeskDomainID: added.data.helpdeskDomainID, domain: host, previousStatus, status },
      emittedBy: 'plugins-helpdesk',
    });
    tick();
    await refresh(host);
    expect(await eventsAbout(host)).toEqual([added]);

    h.stub.setStage(host, 'active');
    tick();
    expect((await refresh(host)).data!.domain.domainStatus).toBe('active');
    tick();
    await refresh(host);
    expect(await eventsAbout(host)).toEqual([added, changed('pending', 'active')]);

    h.stub.setStage(host, 'moved');
    tick();
    await refresh(host);
    expect(await eventsAbout(host)).toEqual([added, changed('pending', 'active'), changed('active', 'pending')]);
  });

  it('keeps the status, and leaves no event, when the change cannot commit', async () => {
    const host = 'sem-evento.acme-atendimento.com.br';
    await add(host);
    const before = await eventsAbout(host);
    h.stub.setStage(host, 'active');
    tick();
    const response = await withTableMissing(h.platform.dataSource, 'webhook_events', () => refresh(host));
    expect(response.response.status).toBe(500);
    expect((await storedRow(host)).status).toBe('pending');
    expect(await eventsAbout(host)).toEqual(before);
  });

  it('is idempotent: the same provider state gives the same answer, only lastCheckedAt moves', async () => {
    const host = 'idempotente.acme-atendimento.com.br';
    await add(host);
    tick();
    const first = await refresh(host);
    const secondAt = tick();
    const second = await refresh(host);
    expect(second.data!).toEqual({ ...first.data!, domain: { ...first.data!.domain, lastCheckedAt: secondAt.toISOString() } });
  });

  it('accepts each profile', async () => {
    const host = 'perfis.acme-atendimento.com.br';
    await add(host);
    for (const authorization of [h.member, h.helpdeskPlugin.authorization, h.connection.authorization]) {
      tick();
      expect((await refresh(host, authorization)).response.status).toBe(200);
    }
  });

  it('finds the domain whatever the case or script of the hostname in the path', async () => {
    await add('Central.Açaí-do-Pará.com.br');
    tick();
    const unicode = await refresh('CENTRAL.AÇAÍ-DO-PARÁ.COM.BR');
    expect(unicode.response.status).toBe(200);
    expect(unicode.data!.domain.domainHostname).toBe('central.xn--aa-do-par-81a1d2d.com.br');
    tick();
    expect((await refresh('central.xn--aa-do-par-81a1d2d.com.br')).response.status).toBe(200);
  });

  describeStandardRefusals({
    method: 'POST',
    path: '/helpdesk/v1/tenants/{tenantID}/helpdesk/domains/{domainHostname}/refresh',
    client: () => h.platform.api.helpdesk,
    tenantID: () => h.tenantID,
    pathParams: () => ({ domainHostname: 'ajuda.acme.com.br' }),
    valid: () => h.owner,
    outsider: () => h.outsider,
    unknownTenant: 403,
  });

  describe('errors', () => {
    it('400 1002 naming domainHostname for 254 characters (253 pass validation)', async () => {
      const label63 = 'a'.repeat(63);
      const hostname253 = `${label63}.${label63}.${label63}.${'b'.repeat(57)}.com`;
      const ok = await refresh(hostname253);
      expect(singleError(ok.error).error_code).toBe(1107);
      const response = await refresh(`c${hostname253}`);
      expect(response.response.status).toBe(400);
      expect(singleError(response.error)).toEqual({
        statusCode: 400,
        error: 'RequestValidationError',
        error_code: 1002,
        message: 'Invalid request data.',
        fields: [
          {
            field: 'domainHostname',
            received: `c${hostname253}`,
            allowed: 'hostname of 1-253 characters: two or more dot-separated labels of 1-63 letters, digits or inner hyphens',
          },
        ],
      });
    });

    it('400 1002 for a hostname with invalid labels, before access is checked', async () => {
      const response = await refresh('-ajuda.acme.com.br', h.outsider);
      expect(singleError(response.error).fields).toEqual([expect.objectContaining({ field: 'domainHostname', received: '-ajuda.acme.com.br' })]);
    });

    it('422 1000 for a tenant not connected to the helpdesk plugin', async () => {
      const tenantID = await h.platform.fixtures.tenant();
      const response = await refresh('ajuda.acme.com.br', h.helpdeskPlugin.authorization, h.platform.api.helpdesk, tenantID);
      expect(response.response.status).toBe(422);
      expect(singleError(response.error)).toEqual({
        statusCode: 422,
        error: 'TenantNotConnectedError',
        error_code: 1000,
        message: 'This tenant is not connected to the plugin.',
      });
    });

    it("404 1107 for a hostname this help center does not have, even when another tenant's has it", async () => {
      const unknown = await refresh('desconhecido.acme.com.br');
      expect(unknown.response.status).toBe(404);
      expect(singleError(unknown.error)).toEqual({
        statusCode: 404,
        error: 'HelpdeskNotFoundError',
        error_code: 1107,
        message: 'No help center answers on this address.',
      });
      const otherTenantID = await h.platform.fixtures.tenant();
      await h.platform.fixtures.connection(otherTenantID, h.helpdeskPlugin.pluginID);
      const created = await h.platform.api.helpdesk.POST(DOMAINS, {
        params: { path: { tenantID: otherTenantID } },
        headers: { authorization: h.helpdeskPlugin.authorization },
        body: { domainHostname: 'alheio.globex.com.br' },
      });
      expect(created.response.status).toBe(201);
      expect(singleError((await refresh('alheio.globex.com.br')).error).error_code).toBe(1107);
    });

    it('502 1122 when the provider fails or times out, with the stored state unchanged', async () => {
      const host = 'provedor-fora.acme-atendimento.com.br';
      await add(host);
      tick();
      await refresh(host);
      const before = await storedRow(host);
      h.stub.setStage(host, 'active');
      for (const mode of ['server-error', 'hang', 'envelope-error'] as const) {
        h.stub.failNext(mode);
        tick();
        const response = await refresh(host);
        expect(response.response.status).toBe(502);
        expect(singleError(response.error)).toEqual({
          statusCode: 502,
          error: 'DomainProvisioningError',
          error_code: 1122,
          message: 'The domain provisioning provider failed to answer. Try again in a moment.',
        });
        expect(await storedRow(host)).toEqual(before);
      }
      tick();
      expect((await refresh(host)).data!.domain.domainStatus).toBe('active');
    });

    it('500 5999 without internals when something unexpected fails', async () => {
      const host = 'inesperado.acme-atendimento.com.br';
      await add(host);
      const clock = h.platform.apps['plugins-helpdesk']!.get(Clock);
      vi.spyOn(clock, 'now').mockImplementation(() => {
        throw new Error('clock exploded');
      });
      try {
        const response = await refresh(host);
        expect(response.response.status).toBe(500);
        expect(singleError(response.error)).toEqual({
          statusCode: 500,
          error: 'UnknownError',
          error_code: 5999,
          message: 'For some unknown reason your request has not succeeded.',
        });
      } finally {
        tick();
      }
    });
  });

  it('registers the hostname again when the provider no longer has it', async () => {
    const host = 'perdido.acme-atendimento.com.br';
    const added = await add(host);
    h.stub.forget(host);
    tick();
    const response = await refresh(host);
    expect(response.response.status).toBe(200);
    expect(response.data!.domain.domainProviderID).toBe(h.stub.find(host)!.id);
    expect(response.data!.domain.domainProviderID).not.toBe(added.domain.domainProviderID);
    expect(response.data!.domain.domainStatus).toBe('pending');
  });

  describe('throttle: one provider check per domain every 10 seconds', () => {
    it('429 1121 until exactly 10 s after the last check, without asking the provider', async () => {
      const host = 'limite.acme-atendimento.com.br';
      await add(host);
      const start = tick();
      expect((await refresh(host)).response.status).toBe(200);
      const calls = h.stub.calls.length;

      h.setNow(new Date(start.getTime() + 9_999));
      const throttled = await refresh(host);
      expect(throttled.response.status).toBe(429);
      expect(singleError(throttled.error)).toEqual({
        statusCode: 429,
        error: 'DomainRefreshThrottledError',
        error_code: 1121,
        message: 'This domain was verified a moment ago. Wait a few seconds and try again.',
      });
      expect(throttled.response.headers.get('retry-after')).toBe('1');
      expect(h.stub.calls.length).toBe(calls);

      h.setNow(new Date(start.getTime() + 2_500));
      expect((await refresh(host)).response.headers.get('retry-after')).toBe('8');

      h.setNow(new Date(start.getTime() + 10_000));
      expect((await refresh(host)).response.status).toBe(200);
      expect(h.stub.calls.length).toBe(calls + 1);
    });

    it('throttles each domain on its own', async () => {
      await add('um.limite.com.br');
      await add('dois.limite.com.br');
      tick();
      expect((await refresh('um.limite.com.br')).response.status).toBe(200);
      expect((await refresh('dois.limite.com.br')).response.status).toBe(200);
      expect((await refresh('um.limite.com.br')).response.status).toBe(429);
    });

    describe('shared between two instances of plugins-helpdesk', () => {
      let secondApp: NestFastifyApplication;
      let second: PluginsHelpdeskClient;
      let clocks: Clock[];

      beforeAll(async () => {
        secondApp = await createPluginsHelpdeskApp(loadConfig(PluginsHelpdeskConfig, h.platform.env));
        await secondApp.listen(0, '127.0.0.1');
        second = createPluginsHelpdeskClient((await secondApp.getUrl()).replace('[::1]', '127.0.0.1'));
        clocks = [h.platform.apps['plugins-helpdesk']!.get(Clock), secondApp.get(Clock)];
      });
      afterAll(() => secondApp.close());

      it('a check on one instance throttles the other, until 10 s later', async () => {
        const host = 'replicas.acme-atendimento.com.br';
        await add(host);
        const start = now + 60_000;
        h.setNow(new Date(start), clocks);
        expect((await refresh(host, h.owner)).response.status).toBe(200);

        h.setNow(new Date(start + 5_000), clocks);
        const throttled = await refresh(host, h.owner, second);
        expect(throttled.response.status).toBe(429);
        expect(singleError(throttled.error).error_code).toBe(1121);

        h.setNow(new Date(start + 10_000), clocks);
        expect((await refresh(host, h.owner, second)).response.status).toBe(200);
        h.setNow(new Date(start + 10_001), clocks);
        expect((await refresh(host, h.owner)).response.status).toBe(429);
        now = start + 10_001;
      });

      it('lets exactly one of many simultaneous refreshes through, across both instances', async () => {
        const host = 'corrida.acme-atendimento.com.br';
        await add(host);
        now += 60_000;
        h.setNow(new Date(now), clocks);
        const calls = h.stub.calls.filter((call) => call.operation === 'get').length;
        const responses = await Promise.all(Array.from({ length: 12 }, (_, index) => refresh(host, h.owner, index % 2 === 0 ? h.platform.api.helpdesk : second)));
        expect(responses.map((response) => response.response.status).sort()).toEqual([200, ...Array(11).fill(429)]);
        expect(h.stub.calls.filter((call) => call.operation === 'get').length).toBe(calls + 1);
      });
    });
  });

  describe('provider calls: deliberate retries, and a wrong zone is a failure', () => {
    const startVariant = async (env: Record<string, string>) => {
      const app = await createPluginsHelpdeskApp(loadConfig(PluginsHelpdeskConfig, { ...h.platform.env, ...env }));
      await app.listen(0, '127.0.0.1');
      return { app, api: createPluginsHelpdeskClient((await app.getUrl()).replace('[::1]', '127.0.0.1')) };
    };
    const gets = () => h.stub.calls.filter((call) => call.operation === 'get').length;

    it('retries a failed provider call CLOUDFLARE_MAX_RETRIES times, then gives up with 502', async () => {
      const variant = await startVariant({ CLOUDFLARE_MAX_RETRIES: '1' });
      try {
        const host = 'retentativa.acme-atendimento.com.br';
        await add(host);
        h.setNow(new Date(now), [variant.app.get(Clock)]);
        h.stub.failNext('server-error', { operations: ['get'] });
        let before = gets();
        expect((await refresh(host, h.owner, variant.api)).response.status).toBe(200);
        expect(gets()).toBe(before + 2);

        now += 10_000;
        h.setNow(new Date(now), [variant.app.get(Clock)]);
        h.stub.failNext('server-error', { operations: ['get'], count: 2 });
        before = gets();
        expect((await refresh(host, h.owner, variant.api)).response.status).toBe(502);
        expect(gets()).toBe(before + 2);
      } finally {
        await variant.app.close();
      }
    });

    it('does not take a 404 of a wrong zone for "already deleted": 502 and the entry stays', async () => {
      const variant = await startVariant({ CLOUDFLARE_ZONE_ID: 'another-zone' });
      try {
        const host = 'zona-errada.acme-atendimento.com.br';
        await add(host);
        const response = await variant.api.DELETE('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains/{domainHostname}', { params: { path: { tenantID: h.tenantID, domainHostname: host } }, headers: { authorization: h.owner } });
        expect(response.response.status).toBe(502);
        expect(await storedRow(host)).toBeDefined();
        expect(h.stub.find(host)).toBeDefined();
      } finally {
        await variant.app.close();
      }
    });
  });
});
