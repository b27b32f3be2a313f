import { randomUUID } from 'node:crypto';
import { Stream } from '../../steady-load';
import type { SeededData } from './seed';
import { DOMAIN, RATE } from './settings';

/**
 * The mixed load, about 100 requests/s in all at BENCH_SOAK_RATE=1: every
 * read and list the bench measures, writes that start background work
 * (operation 2's template submission, a helpdesk domain added and removed),
 * operation 1 (half of them paid connections, whose removal leaves a
 * billing cancellation in core-tenants' outbox), sign-ins (a bcrypt
 * comparison each) and e-mail verifications (a sign-up mail job).
 */
export function loadStreams(data: SeededData, apps: { url: string }[], refreshed: string): Stream[] {
  const [core, services, helpdesk] = apps.map((app) => app.url);
  const owner = { authorization: `Bearer ${data.ownerToken}` };
  const json = { 'content-type': 'application/json' };
  const api = `${services}/v1/tenants/${data.tenantID}`;
  const domains = `${helpdesk}/helpdesk/v1/tenants/${data.tenantID}/helpdesk/domains`;
  const plugin = { authorization: data.pluginAuthorization };
  const reported = new Set<string>();
  const status = (url: string, init: RequestInit = {}) =>
    fetch(url, init).then(async (response) => {
      const body = await response.text();
      // The first answer of each refusal, to say why in the run's output.
      const key = `${init.method ?? 'GET'} ${response.status}`;
      if (response.status >= 400) {
        if (!reported.has(key)) process.stderr.write(`memory: ${key} ${new URL(url).pathname}: ${body.slice(0, 300)}\n`);
        reported.add(key);
      }
      return response.status;
    });
  let counter = 0;
  const next = () => (counter += 1);
  const stream = (name: string, perSecond: number, send: Stream['send'], expected?: number[]): Stream => ({ name, perSecond: perSecond * RATE, send, expected });
  return [
    stream('op 14 notifications', 20, () => status(`${api}/notifications`, { headers: owner })),
    stream('op 5 one campaign model', 10, () => status(`${api}/campaigns-models/${data.campaignModelID}`, { headers: owner })),
    stream('op 6 campaign stats', 10, () => status(`${api}/campaigns/stats`, { headers: owner })),
    stream('op 4 campaign models list', 5, () => status(`${api}/campaigns-models?perPage=20`, { headers: owner })),
    stream('op 7 shortcuts list', 5, () => status(`${api}/operators/shortcuts?perPage=20`, { headers: owner })),
    stream('op 11 contact sessions list', 5, () => status(`${api}/contacts/${data.contactID}/sessions?perPage=20`, { headers: owner })),
    stream('op 2 create a campaign model (template submission)', 2, () =>
      status(`${api}/campaigns-models`, {
        method: 'POST',
        headers: { ...owner, ...json, 'idempotency-key': randomUUID() },
        body: JSON.stringify(campaignModelBody(data.channelID, `bench model ${process.pid} ${next()}`)),
      }),
    ),
    stream('op 8 e-mail verification (sign-up mail job)', 3, () =>
      status(`${services}/v1/operators/email-verification`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ operatorEmail: `soak-${process.pid}-${next()}@${DOMAIN}`, operatorFirstname: 'Bench' }),
      }),
    ),
    stream('op 1 delete a connection (transport; half paid: billing outbox)', 3, () => {
      const path = data.connectionPaths.pop();
      if (!path) return Promise.reject(new Error('out of seeded connections'));
      return status(`${services}${path}`, { method: 'DELETE', headers: { authorization: `Bearer ${data.removerToken}` } });
    }),
    stream('op 15 GET /tenants', 10, () => status(`${core}/tenants`, { headers: owner })),
    stream('sign-in (bcrypt)', 1, () => {
      const operator = data.signInOperators[next() % data.signInOperators.length];
      return status(`${core}/v1/operators/sign-in`, { method: 'POST', headers: json, body: JSON.stringify({ operatorEmail: operator.email, password: operator.password }) });
    }),
    stream('helpdesk domains list', 10, () => status(domains, { headers: plugin })),
    stream('op 12 refresh (throttled after the first)', 10, () => status(`${domains}/${refreshed}/refresh`, { method: 'POST', headers: plugin }), [200, 429]),
    stream('helpdesk add then remove a domain', 1, async () => {
      const hostname = `soak-${process.pid}-${next()}.${DOMAIN}`;
      const added = await status(domains, { method: 'POST', headers: { ...plugin, ...json, 'idempotency-key': randomUUID() }, body: JSON.stringify({ domainHostname: hostname }) });
      return [added, await status(`${domains}/${hostname}`, { method: 'DELETE', headers: plugin })];
    }),
  ];
}

/** Adds a helpdesk domain through the API (so the provider knows it) and answers its hostname. */
export async function addDomain(data: SeededData, helpdesk: string, hostname: string): Promise<string> {
  const response = await fetch(`${helpdesk}/helpdesk/v1/tenants/${data.tenantID}/helpdesk/domains`, {
    method: 'POST',
    headers: { authorization: data.pluginAuthorization, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ domainHostname: hostname }),
  });
  if (response.status !== 201) throw new Error(`adding ${hostname}: HTTP ${response.status} ${await response.text()}`);
  return hostname;
}

function campaignModelBody(channelID: string, name: string): Record<string, unknown> {
  return {
    campaignModelChannel: 'whatsapp',
    campaignModelChannelID: channelID,
    campaignModelName: name,
    campaignModelType: 'UTILITY',
    campaignModelGatewayMeta: { language: 'pt_BR' },
    campaignModelSlots: {
      body: {
        content: '<p>Olá {{customer_name}}</p>',
        text: 'Olá {{customer_name}}, seu pedido {{order_id}} foi enviado.',
        variables: [
          { id: 'b1', key: 'customer_name', type: 'text', fallback: 'cliente' },
          { id: 'b2', key: 'order_id', type: 'text', fallback: '' },
        ],
      },
    },
  };
}
