import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { encodeIdAndSecret } from '@platform/auth';
import type { DemoFixture } from './demo-fixture';

/**
 * `npm run demo:chat [-- "text" ...]`: a channel simulator for the quick
 * start (docs/quick-start.md). As the owner it opens an operator socket on
 * the real-time gateway (which makes them online, as a front end would) and
 * sets the fixture's inbox to least-loaded routing; as the demo fixture's plugin connection it posts
 * what a contact writes to that inbox; routing assigns the session to the
 * online owner (who takes it, should routing not have assigned it within
 * ROUTING_WAIT_MS), who replies; as the channel again it reports the reply
 * delivered, then prints the conversation as the channel reads it.
 */
/** How long the demo waits for routing to assign the session before the owner takes it by hand. */
const ROUTING_WAIT_MS = 10_000;
/** How long the demo waits for the owner's socket to make them online. */
const PRESENCE_WAIT_MS = 10_000;

async function main(): Promise<void> {
  const fixture = JSON.parse(readFileSync('.data/demo-fixture.json', 'utf8')) as DemoFixture;
  if (!fixture.inboxID) throw new Error('.data/demo-fixture.json has no inboxID: seed again (npm run demo:seed) with this version');
  const base = `http://127.0.0.1:${process.env.SERVICES_API_PORT ?? 3000}/v1/tenants/${fixture.tenantID}`;
  const channel = `PluginConnection ${encodeIdAndSecret(fixture.pluginConnection.pluginConnectionID, fixture.pluginConnection.pluginConnectionToken)}`;
  const operator = `Bearer ${fixture.operators.owner.token}`;
  const call = async <T>(method: string, path: string, authorization: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as T;
    if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const say = (who: string, text: string) => process.stdout.write(`${who.padEnd(9)} ${text}\n`);

  const owner = await signInOwnerFrontEnd(call, operator);
  say('owner', owner.online ? 'online: a socket of theirs is open on the real-time gateway' : `not online yet (${owner.status}): routing may not assign to them`);

  await call('PUT', `/inboxes/${fixture.inboxID}/routing`, operator, { policy: 'least-loaded', capacity: 5 });
  say('owner', 'set the inbox to least-loaded routing (capacity 5)');

  const contactHandle = `+55119${String(Date.now()).slice(-8)}`;
  const lines = process.argv.slice(2).length ? process.argv.slice(2) : ['Olá! Meu pedido ainda não chegou.', 'É o pedido 4815.'];
  let sessionID = '';
  for (const content of lines) {
    const posted = await call<{ data: { session: { sessionID: string; sessionState: string } } }>('POST', `/inboxes/${fixture.inboxID}/messages`, channel, {
      contactHandle,
      contactName: 'Cliente da demo',
      channelMessageID: `demo.${randomUUID()}`,
      content,
    });
    sessionID = posted.data.session.sessionID;
    say('contact', `${content}   (session ${sessionID}, ${posted.data.session.sessionState})`);
  }
  const deadline = Date.now() + ROUTING_WAIT_MS;
  let assignee: string | null = null;
  while (assignee === null && Date.now() < deadline) {
    assignee = (await call<{ data: { operatorID: string | null } }>('GET', `/sessions/${sessionID}`, operator)).data.operatorID;
    if (assignee === null) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (assignee === null) {
    await call('POST', `/sessions/${sessionID}/take`, operator);
    say('operator', 'took the session (routing had not assigned it: is the owner online?)');
  } else say('routing', `assigned the session to ${assignee === fixture.operators.owner.operatorID ? 'the owner' : assignee}, the online operator with the fewest open sessions`);
  const reply = await call<{ data: { messageID: string } }>('POST', `/sessions/${sessionID}/messages`, operator, { content: 'Olá! Vou verificar o pedido 4815 agora mesmo.' });
  await call('PUT', `/messages/${reply.data.messageID}/delivery-status`, channel, { deliveryStatus: 'delivered' });
  say('channel', 'reported the reply delivered');

  const page = await call<{ data: { messageDirection: string; messageValue: unknown; deliveryStatus: string | null }[] }>('GET', `/sessions/${sessionID}/messages?limit=20`, channel);
  process.stdout.write('\nThe conversation, as the channel reads it:\n');
  for (const message of [...page.data].reverse()) {
    say(message.messageDirection === 'inbound' ? 'contact' : 'operator', `${String(message.messageValue)}${message.deliveryStatus ? `   [${message.deliveryStatus}]` : ''}`);
  }
  owner.socket.close(1000);
}

type Call = <T>(method: string, path: string, authorization: string, body?: unknown) => Promise<T>;

/**
 * The owner at work as an operators' front end makes them: a real-time
 * ticket, then a socket on the gateway, whose lease makes their status in
 * effect online within the presence reconciler's poll (docs/presence.md).
 * Answers once they are online, or with the status they still have after
 * PRESENCE_WAIT_MS.
 */
async function signInOwnerFrontEnd(call: Call, operator: string): Promise<{ socket: WebSocket; online: boolean; status: string }> {
  const ticket = await call<{ data: { ticket: string } }>('POST', '/realtime-tickets', operator);
  const gateway = `ws://127.0.0.1:${process.env.REALTIME_GATEWAY_PORT ?? 3003}/v1/realtime?ticket=${encodeURIComponent(ticket.data.ticket)}`;
  const socket = new WebSocket(gateway);
  socket.onmessage = ({ data }) => {
    const frame = JSON.parse(String(data)) as { type: string };
    if (frame.type === 'welcome') socket.send(JSON.stringify({ type: 'subscribe' }));
  };
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onerror = () => reject(new Error(`the real-time gateway did not open a socket at ${gateway.split('?')[0]}`));
  });
  const deadline = Date.now() + PRESENCE_WAIT_MS;
  let status = 'offline';
  while (Date.now() < deadline) {
    status = (await call<{ data: { status: string } }>('GET', '/presence/me', operator)).data.status;
    if (status === 'online') return { socket, online: true, status };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { socket, online: false, status };
}

main().catch((error: unknown) => {
  process.stderr.write(`demo:chat: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
