import { PG_BOSS } from '@apps/services-api';
import { ReceivedMail } from '@platform/testing';
import type { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HelpdeskPlatform, startHelpdeskPlatform } from '../helpdesk/helpdesk-platform';
import { freshAddress, SignUpPlatform, startSignUpPlatform } from '../sign-up/sign-up-support';
import { TestPlatform } from '../support/platform';

/** One audit event as an owner reads it, reduced to what these tests compare. */
interface SeenEvent {
  action: string;
  actor: string;
  target: string;
  summary: Record<string, unknown>;
}

/** The tenant's whole audit log through GET /v1/tenants/{tenantID}/audit-events, oldest first. */
async function auditLog(platform: TestPlatform, tenantID: string, ownerBearer: string): Promise<SeenEvent[]> {
  const response = await platform.api.services.GET('/v1/tenants/{tenantID}/audit-events', {
    params: { path: { tenantID }, query: { perPage: 100 } as never },
    headers: { authorization: ownerBearer },
  });
  expect(response.response.status).toBe(200);
  return response
    .data!.data.map((event) => ({ action: event.action, actor: `${event.actor.kind}:${event.actor.id}`, target: event.target.id, summary: event.summary }))
    .reverse();
}

function tokenOf(mail: ReceivedMail): string {
  const token = /^([A-Za-z0-9_-]{43})$/m.exec(mail.text)?.[1];
  if (!token) throw new Error(`no token in mail: ${mail.text}`);
  return token;
}

describe('administrative actions in core-tenants, each in the audit log once with its actor', () => {
  let env: SignUpPlatform;
  let tenantID: string;
  let ownerID: string;
  let owner: string;

  beforeAll(async () => {
    env = await startSignUpPlatform();
    const { fixtures } = env.platform;
    tenantID = await fixtures.tenant('Acme Atendimento');
    const operator = await fixtures.operator();
    await fixtures.membership(tenantID, operator.operatorID, 'owner');
    ownerID = operator.operatorID;
    owner = `Bearer ${await env.platform.tokenFor(ownerID)}`;
  });
  afterAll(() => env.close());

  const install = (pluginID: string) =>
    env.platform.api.services.POST('/v1/tenants/{tenantID}/plugins/connections', { params: { path: { tenantID } }, headers: { authorization: owner }, body: { pluginID } });
  const remove = (pluginConnectionID: string) =>
    env.platform.api.services.DELETE('/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}', {
      params: { path: { tenantID, pluginConnectionID } },
      headers: { authorization: owner },
    });
  const invite = (operatorEmail: string) =>
    env.platform.api.services.POST('/v1/tenants/{tenantID}/operators/invitations', {
      params: { path: { tenantID } },
      headers: { authorization: owner },
      body: { operatorEmail } as never,
    });

  it('records installs and deletes with their billing and VM outcome, and nothing for a refused install', async () => {
    const paid = await env.platform.fixtures.plugin({ kind: 'paid' });
    const hosted = await env.platform.fixtures.plugin({ kind: 'hosted' });
    const paidConnection = (await install(paid.pluginID)).data!.data.pluginConnectionID;
    const hostedConnection = (await install(hosted.pluginID)).data!.data.pluginConnectionID;
    expect((await install(paid.pluginID)).response.status).toBe(409);
    expect((await remove(paidConnection)).response.status).toBe(200);
    expect((await remove(hostedConnection)).response.status).toBe(200);
    expect((await remove(hostedConnection)).response.status).toBe(404);

    const actor = `operator:${ownerID}`;
    expect(await auditLog(env.platform, tenantID, owner)).toEqual([
      { action: 'pluginConnection.installed', actor, target: paidConnection, summary: { pluginID: paid.pluginID, kind: 'paid', billing: 'subscribed', vm: 'none' } },
      { action: 'pluginConnection.installed', actor, target: hostedConnection, summary: { pluginID: hosted.pluginID, kind: 'hosted', billing: 'none', vm: 'created' } },
      { action: 'pluginConnection.deleted', actor, target: paidConnection, summary: { pluginID: paid.pluginID, kind: 'paid', billing: 'cancellation scheduled', vm: 'none' } },
      { action: 'pluginConnection.deleted', actor, target: hostedConnection, summary: { pluginID: hosted.pluginID, kind: 'hosted', billing: 'none', vm: 'deleted' } },
    ]);
  });

  it('records an invitation sent by the owner and accepted by the invitee, each once', async () => {
    const before = (await auditLog(env.platform, tenantID, owner)).length;
    const invitee = await env.platform.fixtures.operator({ email: freshAddress() });
    const sent = await invite(invitee.email);
    expect(sent.response.status).toBe(201);
    const invitationToken = tokenOf(await env.smtp.nextMailTo(invitee.email));
    const inviteeBearer = `Bearer ${await env.platform.tokenFor(invitee.operatorID)}`;
    const accept = () =>
      env.platform.api.services.POST('/v1/operators/invitations/acceptance', { headers: { authorization: inviteeBearer }, body: { invitationToken } as never });
    expect((await accept()).response.status).toBe(200);
    expect((await accept()).response.status).toBe(400);

    const { invitationID, expiresAt } = sent.data!.data;
    expect((await auditLog(env.platform, tenantID, owner)).slice(before)).toEqual([
      { action: 'invitation.sent', actor: `operator:${ownerID}`, target: invitationID, summary: { operatorEmail: invitee.email, expiresAt } },
      { action: 'invitation.accepted', actor: `operator:${invitee.operatorID}`, target: invitationID, summary: { operatorID: invitee.operatorID, role: 'member' } },
    ]);
  });

  // Last: it stops services-api's job queue for good.
  it('records an invitation whose mail could not be queued as sent, then revoked', async () => {
    const before = (await auditLog(env.platform, tenantID, owner)).length;
    await env.platform.apps['services-api']!.get<symbol, PgBoss>(PG_BOSS).stop({ graceful: false });
    const address = freshAddress();
    expect((await invite(address)).response.status).toBe(503);

    const events = (await auditLog(env.platform, tenantID, owner)).slice(before);
    expect(events.map(({ action, actor }) => [action, actor])).toEqual([
      ['invitation.sent', `operator:${ownerID}`],
      ['invitation.revoked', `operator:${ownerID}`],
    ]);
    expect(events[0].target).toBe(events[1].target);
    expect(events[0].summary).toMatchObject({ operatorEmail: address });
  });
});

describe('helpdesk domain actions, each in the audit log once with its actor', () => {
  let h: HelpdeskPlatform;
  const DOMAINS = '/helpdesk/v1/tenants/{tenantID}/helpdesk/domains';

  beforeAll(async () => {
    h = await startHelpdeskPlatform({}, ['services-api']);
  });
  afterAll(() => h.close());

  it('records an add by the connection, the change to active, and a removal by the owner; a refresh that changes nothing is not recorded', async () => {
    const host = 'ajuda.acme-atendimento.com.br';
    const added = await h.platform.api.helpdesk.POST(DOMAINS, {
      params: { path: { tenantID: h.tenantID } },
      headers: { authorization: h.connection.authorization },
      body: { domainHostname: host },
    });
    expect(added.response.status).toBe(201);
    const refresh = () =>
      h.platform.api.helpdesk.POST(`${DOMAINS}/{domainHostname}/refresh`, { params: { path: { tenantID: h.tenantID, domainHostname: host } }, headers: { authorization: h.owner } });
    let now = Date.now();
    const tick = () => h.setNow(new Date((now += 11_000)));

    tick();
    expect((await refresh()).data!.domain.domainStatus).toBe('pending');
    h.stub.setStage(host, 'active');
    tick();
    expect((await refresh()).data!.domain.domainStatus).toBe('active');
    tick();
    expect((await refresh()).data!.domain.domainStatus).toBe('active');
    const removed = await h.platform.api.helpdesk.DELETE(`${DOMAINS}/{domainHostname}`, {
      params: { path: { tenantID: h.tenantID, domainHostname: host } },
      headers: { authorization: h.owner },
    });
    expect(removed.response.status).toBe(200);

    const events = await auditLog(h.platform, h.tenantID, h.owner);
    expect(events.map(({ action, actor, target }) => [action, actor, target])).toEqual([
      ['helpdeskDomain.added', `pluginConnection:${h.connection.pluginConnectionID}`, host],
      ['helpdeskDomain.activated', `operator:${h.ownerID}`, host],
      ['helpdeskDomain.removed', `operator:${h.ownerID}`, host],
    ]);
  });
});
