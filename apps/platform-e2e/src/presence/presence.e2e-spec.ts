import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationPlatform, createInbox, Operator, startConversationPlatform } from '../conversations/conversation-platform';
import { GatewayReplica, startGateway, TestSocket } from '../realtime/realtime-client';
import { eventually, WAIT_LIMIT_MS } from '../support/eventually';
import { verified } from '../webhooks/webhook-receiver';

/**
 * Small settings so that the socket-driven moves happen within the test:
 * the grace stays above the lease refresh, as docs/presence.md requires,
 * so an open socket never lapses between two refreshes.
 */
const SERVICES_ENV = { PRESENCE_OFFLINE_GRACE_SECONDS: '5', PRESENCE_RECONCILE_POLL_MS: '100' };
const GATEWAY_ENV = { PRESENCE_LEASE_REFRESH_SECONDS: '1', REALTIME_RELAY_POLL_MS: '20' };

interface PresenceEvent {
  id: string;
  type: 'operator.presenceChanged';
  subject: string;
  data: { operatorID: string; status: string; chosenStatus: string; changedAt: string };
}

/**
 * Operator presence (docs/presence.md) through the real stack: chosen over
 * REST, derived from the operator's sockets on a real gateway, listed by
 * keyset, and every change of the status in effect pushed to the tenant's
 * operator sockets (no plugin's, no other tenant's) and to the webhooks
 * subscribed to it.
 */
describe('operator presence', () => {
  let context: ConversationPlatform;
  let gateway: GatewayReplica;
  let hook: { secret: string };
  const api = () => context.platform.api.services;
  const as = (operator: Operator, tenantID = context.tenantID) => ({ params: { path: { tenantID } }, headers: { authorization: operator.authorization } });

  beforeAll(async () => {
    context = await startConversationPlatform(SERVICES_ENV);
    gateway = await startGateway(context.platform, GATEWAY_ENV);
    hook = await context.webhooks.endpoint(context.tenantID, { url: context.receiver.url('presence'), eventTypes: ['operator.presenceChanged'] });
  });

  afterAll(async () => {
    await gateway?.close();
    await context?.close();
  });

  const operatorSocket = async (operator: Operator, tenantID = context.tenantID) => {
    const ticket = await api().POST('/v1/tenants/{tenantID}/realtime-tickets', as(operator, tenantID));
    expect(ticket.response.status).toBe(201);
    const socket = await TestSocket.connect(gateway.url, { query: { ticket: ticket.data!.data.ticket } });
    expect((await socket.start({ type: 'subscribe' })).type).toBe('subscribed');
    return socket;
  };
  const presenceEvents = (socket: TestSocket): PresenceEvent[] =>
    socket
      .ofType('event')
      .map((frame) => frame.event as PresenceEvent)
      .filter((event) => event.type === 'operator.presenceChanged');
  /** Waits until the socket received a presence event of the operator with that status and chosen status. */
  const presenceReaches = (socket: TestSocket, operator: Operator, status: string, chosenStatus: string) =>
    eventually(
      () =>
        presenceEvents(socket).find((event) => event.data.operatorID === operator.operatorID && event.data.status === status && event.data.chosenStatus === chosenStatus) ??
        fail(`no ${status} (${chosenStatus}) event of ${operator.operatorID} yet`),
    );
  const mine = async (operator: Operator) => {
    const answer = await api().GET('/v1/tenants/{tenantID}/presence/me', as(operator));
    expect(answer.response.status).toBe(200);
    return answer.data!.data;
  };

  it('records the chosen status over REST, offline while no socket is open, and refuses what is not a status', async () => {
    const { owner } = context;
    expect(await mine(owner)).toEqual({ operatorID: owner.operatorID, status: 'offline', chosenStatus: 'online', changedAt: null });

    const chosen = await api().PUT('/v1/tenants/{tenantID}/presence/me', { ...as(owner), body: { status: 'busy' } });
    expect(chosen.response.status).toBe(200);
    expect(chosen.data!.data).toMatchObject({ operatorID: owner.operatorID, status: 'offline', chosenStatus: 'busy' });
    expect(await mine(owner)).toEqual(chosen.data!.data);

    for (const body of [{ status: 'sleeping' }, { status: 'ONLINE' }, {}, { status: 1 }]) {
      const refused = await api().PUT('/v1/tenants/{tenantID}/presence/me', { ...as(owner), body: body as never });
      expect(refused.response.status).toBe(400);
      expect(refused.error).toMatchObject({ errors: [{ error_code: 1002, fields: [expect.objectContaining({ field: 'status' })] }] });
    }
    expect((await mine(owner)).chosenStatus).toBe('busy');

    // Another tenant's operator reaches nothing of this tenant's presence.
    const outsider = await api().GET('/v1/tenants/{tenantID}/presence/me', as(context.otherOwner));
    expect(outsider.response.status).toBe(403);
    const outsiderList = await api().GET('/v1/tenants/{tenantID}/presence', { ...as(context.otherOwner), params: { path: { tenantID: context.tenantID }, query: {} } });
    expect(outsiderList.response.status).toBe(403);
    expect(outsiderList.error).toMatchObject({ errors: [{ error_code: 1004 }] });
  });

  it("lists the tenant's members by keyset with their status, 206 while another page follows, and refuses a bad page", async () => {
    const list = (query: { limit?: string; cursor?: string }, operator = context.member, tenantID = context.tenantID) =>
      api().GET('/v1/tenants/{tenantID}/presence', { ...as(operator, tenantID), params: { path: { tenantID }, query } });
    const members = [context.owner, context.member, context.otherMember].map((operator) => operator.operatorID).sort();

    const whole = await list({});
    expect(whole.response.status).toBe(200);
    expect(whole.data!.data.map((row) => row.operatorID)).toEqual(members);
    expect(whole.data!.meta).toEqual({ limit: 100, nextCursor: null });

    const first = await list({ limit: '2' });
    expect(first.response.status).toBe(206);
    expect(first.data!.data).toHaveLength(2);
    const second = await list({ limit: '2', cursor: first.data!.meta.nextCursor! });
    expect(second.response.status).toBe(200);
    expect(second.data!.meta.nextCursor).toBeNull();
    expect([...first.data!.data, ...second.data!.data]).toEqual(whole.data!.data);

    for (const query of [{ limit: '0' }, { limit: '201' }, { limit: 'ten' }, { cursor: 'forged.cursor' }]) {
      const refused = await list(query);
      expect(refused.response.status).toBe(400);
      expect(refused.error).toMatchObject({ errors: [{ error_code: 1002 }] });
    }

    // The other tenant lists its own members only.
    const theirs = await list({}, context.otherOwner, context.otherTenantID);
    expect(theirs.data!.data.map((row) => row.operatorID)).toEqual([context.otherOwner.operatorID]);
  });

  it("follows the operator's sockets: online when one connects, offline after the grace once it closed, each change pushed to the tenant's operators", async () => {
    const { member, otherMember } = context;
    const watcher = await operatorSocket(otherMember);
    const channel = await TestSocket.connect(gateway.url, { headers: { authorization: context.channel.authorization } });
    expect((await channel.start({ type: 'subscribe' })).type).toBe('subscribed');
    const outsider = await operatorSocket(context.otherOwner, context.otherTenantID);

    // The member connects (chosen online, the default): online, seen by another operator's socket and over REST.
    const socket = await operatorSocket(member);
    const online = await presenceReaches(watcher, member, 'online', 'online');
    expect(online).toMatchObject({ subject: `operator:${member.operatorID}`, data: { changedAt: expect.any(String) } });
    expect(await mine(member)).toEqual({ operatorID: member.operatorID, status: 'online', chosenStatus: 'online', changedAt: online.data.changedAt });
    socket.send({ type: 'activity' });

    // Busy by choice: in effect at once, since a socket is open.
    const busy = await api().PUT('/v1/tenants/{tenantID}/presence/me', { ...as(member), body: { status: 'busy' } });
    expect(busy.data!.data).toMatchObject({ status: 'busy', chosenStatus: 'busy' });
    await presenceReaches(watcher, member, 'busy', 'busy');

    // The socket closes: offline once the grace has passed, the choice kept.
    socket.close();
    const offline = await presenceReaches(watcher, member, 'offline', 'busy');
    expect(await mine(member)).toMatchObject({ status: 'offline', chosenStatus: 'busy', changedAt: offline.data.changedAt });

    // A barrier for the channel's stream: its inbox's message comes after every presence event above.
    const inboxID = await createInbox(context, 'WhatsApp Presença');
    const posted = await api().POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
      params: { path: { tenantID: context.tenantID, inboxID } },
      headers: { authorization: context.channel.authorization },
      body: { contactHandle: '+5511933330000', channelMessageID: 'wamid.presence.1', content: 'Olá!' },
    });
    expect(posted.response.status).toBe(201);
    await eventually(() => channel.ofType('event').find((frame) => (frame.event as { type: string }).type === 'message.created') ?? fail('no message yet'));
    expect(presenceEvents(channel)).toEqual([]);
    // The other tenant's operator sees their own tenant's presence only: once their socket made them online, their choice of busy reaches it.
    await eventually(async () => expect((await api().GET('/v1/tenants/{tenantID}/presence/me', as(context.otherOwner, context.otherTenantID))).data!.data.status).toBe('online'));
    const theirChoice = await api().PUT('/v1/tenants/{tenantID}/presence/me', { ...as(context.otherOwner, context.otherTenantID), body: { status: 'busy' } });
    expect(theirChoice.data!.data.status).toBe('busy');
    await presenceReaches(outsider, context.otherOwner, 'busy', 'busy');
    expect(presenceEvents(outsider).every((event) => event.data.operatorID === context.otherOwner.operatorID)).toBe(true);

    // The webhook subscribed to the event received the same changes, signed.
    const delivered = await eventually(() => {
      const events = context.receiver.to('presence').map((delivery) => verified(hook.secret, delivery));
      const ofMember = events.filter((event) => event.data.operatorID === member.operatorID).map((event) => event.data.status);
      expect(ofMember).toEqual(expect.arrayContaining(['online', 'busy', 'offline']));
      return events;
    });
    expect(delivered.every((event) => event.type === 'operator.presenceChanged')).toBe(true);
    for (const open of [watcher, channel, outsider]) open.close();
  });
});

/**
 * Idleness (docs/presence.md#rules): with a tiny away threshold, an operator
 * who chose online and sends no activity turns away, and their socket's
 * `activity` frame brings them back online. Each step is awaited as the
 * event it makes, never as a time.
 */
describe('operator presence while idle', () => {
  let context: ConversationPlatform;
  let gateway: GatewayReplica;

  beforeAll(async () => {
    context = await startConversationPlatform({ ...SERVICES_ENV, PRESENCE_AWAY_AFTER_SECONDS: '3' });
    gateway = await startGateway(context.platform, GATEWAY_ENV);
  });

  afterAll(async () => {
    await gateway?.close();
    await context?.close();
  });

  it('turns an idle operator who chose online away, and their activity frame brings them back', async () => {
    const { member, otherMember } = context;
    const operatorSocket = async (operator: Operator) => {
      const ticket = await context.platform.api.services.POST('/v1/tenants/{tenantID}/realtime-tickets', {
        params: { path: { tenantID: context.tenantID } },
        headers: { authorization: operator.authorization },
      });
      const opened = await TestSocket.connect(gateway.url, { query: { ticket: ticket.data!.data.ticket } });
      expect((await opened.start({ type: 'subscribe' })).type).toBe('subscribed');
      return opened;
    };
    // Another operator watches from before the member connects, so no change of the member's is missed.
    const watcher = await operatorSocket(otherMember);
    const socket = await operatorSocket(member);
    /** The statuses of the member's presence events the watcher received, in the order they arrived, each once. */
    const statuses = () => {
      const events = watcher
        .ofType('event')
        .map((frame) => frame.event as PresenceEvent)
        .filter((event) => event.type === 'operator.presenceChanged' && event.data.operatorID === member.operatorID);
      return events.filter((event, index) => events.findIndex((other) => other.id === event.id) === index).map((event) => event.data.status);
    };
    // Connected, then idle past the threshold: away, the choice still online.
    await eventually(() => expect(statuses()).toContain('away'));
    const away = await context.platform.api.services.GET('/v1/tenants/{tenantID}/presence/me', { params: { path: { tenantID: context.tenantID } }, headers: { authorization: member.authorization } });
    expect(away.data!.data).toMatchObject({ chosenStatus: 'online' });
    // Activity on the socket, kept up while we wait (twice a second, well under the frame limit): online again.
    const whileAway = statuses().length;
    await eventually(
      () => {
        socket.send({ type: 'activity' });
        expect(statuses().slice(whileAway)).toContain('online');
      },
      WAIT_LIMIT_MS,
      500,
    );
    // A plugin connection's socket has no lease: its activity frame is refused.
    const channel = await TestSocket.connect(gateway.url, { headers: { authorization: context.channel.authorization } });
    channel.send({ type: 'activity' });
    const refused = await eventually(() => channel.ofType('error')[0] ?? fail('no error yet'));
    expect(refused).toMatchObject({ error: { error_code: 1002, fields: [{ field: 'type' }] } });
    for (const open of [socket, watcher, channel]) open.close();
  });
});

function fail(message: string): never {
  throw new Error(message);
}
