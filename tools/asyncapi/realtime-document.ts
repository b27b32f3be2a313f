import { readFileSync, writeFileSync } from 'node:fs';
import { CLIENT_FRAME_SCHEMAS, CLOSE_CODE_MEANINGS, REALTIME_PATH, SERVER_FRAME_SCHEMAS } from '@apps/realtime-gateway';
import { API_VERSION } from '@platform/http-common';
import { stringify } from 'yaml';

/**
 * `npm run asyncapi` writes docs/asyncapi/realtime-gateway.yaml, the AsyncAPI 3
 * document of the real-time gateway, from the gateway's frame schemas
 * (apps/realtime-gateway/src/sockets/frame-schemas.ts); `npm run asyncapi:check`
 * (part of `npm run lint`) fails when the committed one differs, and Redocly
 * lints it with the OpenAPI documents (redocly.yaml).
 *
 * Written from data rather than kept by hand, like the OpenAPI documents: the
 * frames the gateway sends and the document cannot drift apart.
 */
export const ASYNCAPI_PATH = 'docs/asyncapi/realtime-gateway.yaml';

/** The upgrade's credentials: a plugin's or connection's Authorization header, or an operator's ticket. */
const SECURITY_SCHEMES = {
  plugin: { type: 'httpApiKey', name: 'Authorization', in: 'header', description: '`Plugin base64(pluginID:pluginToken)`, with `?tenantID=`' },
  pluginConnection: { type: 'httpApiKey', name: 'Authorization', in: 'header', description: '`PluginConnection base64(pluginConnectionID:pluginConnectionToken)`' },
  ticket: { type: 'httpApiKey', name: 'ticket', in: 'query', description: 'A single-use ticket from `POST /v1/tenants/{tenantID}/realtime-tickets` (operators)' },
};
const security = Object.keys(SECURITY_SCHEMES).map((name) => ({ $ref: `#/components/securitySchemes/${name}` }));

const messageName = (direction: 'client' | 'server', type: string) => `${direction}_${type.replace(/-/g, '_')}`;

export function realtimeDocument(): Record<string, unknown> {
  const messages: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  const add = (direction: 'client' | 'server', type: string, schema: Record<string, unknown>) => {
    const name = messageName(direction, type);
    schemas[name] = schema;
    messages[name] = { name: type, title: `${type} (${direction === 'client' ? 'client to gateway' : 'gateway to client'})`, summary: schema.description, contentType: 'application/json', payload: { $ref: `#/components/schemas/${name}` } };
  };
  for (const [type, schema] of Object.entries(CLIENT_FRAME_SCHEMAS)) add('client', type, schema);
  for (const [type, schema] of Object.entries(SERVER_FRAME_SCHEMAS)) add('server', type, schema);
  const reference = (names: string[]) => names.map((name) => ({ $ref: `#/channels/realtime/messages/${name}` }));
  const clientNames = Object.keys(CLIENT_FRAME_SCHEMAS).map((type) => messageName('client', type));
  const serverNames = Object.keys(SERVER_FRAME_SCHEMAS).map((type) => messageName('server', type));
  const closeCodes = Object.entries(CLOSE_CODE_MEANINGS)
    .map(([code, meaning]) => `| ${code} | ${meaning} |`)
    .join('\n');
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Real-time gateway',
      version: API_VERSION,
      description:
        'WebSockets for plugins, plugin connections and operators: the conversation events of a tenant as they commit, ' +
        'resumable by offset within a retention window (docs/realtime.md). JSON text frames, one object each.\n\n' +
        'Plugins and connections authenticate the upgrade with their `Authorization` header; operators with ' +
        '`?ticket=` from `POST /v1/tenants/{tenantID}/realtime-tickets` (services-api). A refused upgrade is answered ' +
        'in the error envelope (401 1003, 403 1004, 400 1001/1002, 429 1071, 404 1904, 503 5903).\n\n' +
        'A plugin connection also sends its channel\'s inbound messages and delivery statuses (`post-message`, ' +
        '`report-delivery-status`): the gateway makes the REST call each stands for on services-api with the ' +
        'connection\'s credential and answers with `result` or `error`, naming the client\'s `requestID`.\n\n' +
        `Close codes:\n\n| code | meaning |\n|---|---|\n${closeCodes}`,
    },
    servers: {
      local: { host: '127.0.0.1:3003', protocol: 'ws', description: 'Local quick start (npm start)' },
      cluster: { host: 'realtime-gateway.platform.svc:3003', protocol: 'ws', description: 'Inside the Kubernetes cluster (k8s/)' },
    },
    channels: {
      realtime: {
        address: REALTIME_PATH,
        title: 'One socket',
        description: 'A socket of one tenant. `tenantID` (query) names the tenant for a plugin; `ticket` (query) authenticates an operator.',
        messages: Object.fromEntries(Object.keys(messages).map((name) => [name, { $ref: `#/components/messages/${name}` }])),
        bindings: {
          ws: {
            method: 'GET',
            query: {
              type: 'object',
              properties: { tenantID: { type: 'string', format: 'uuid' }, ticket: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' } },
            },
            headers: { type: 'object', properties: { Authorization: { type: 'string', description: '`Plugin <base64(id:token)>` or `PluginConnection <base64(id:token)>`' } } },
          },
        },
      },
    },
    operations: {
      sendFrame: { action: 'receive', channel: { $ref: '#/channels/realtime' }, summary: 'Frames a client sends.', security, messages: reference(clientNames) },
      receiveFrame: { action: 'send', channel: { $ref: '#/channels/realtime' }, summary: 'Frames the gateway sends.', security, messages: reference(serverNames) },
    },
    components: { messages, schemas, securitySchemes: SECURITY_SCHEMES },
  };
}

function main(mode: string | undefined): void {
  if (mode !== 'write' && mode !== 'check') throw new Error('usage: realtime-document.js write|check');
  const text = `# Written by \`npm run asyncapi\` from apps/realtime-gateway/src/sockets/frame-schemas.ts; do not edit.\n${stringify(realtimeDocument(), { lineWidth: 0 })}`;
  if (mode === 'write') return writeFileSync(ASYNCAPI_PATH, text);
  let committed = '';
  try {
    committed = readFileSync(ASYNCAPI_PATH, 'utf8');
  } catch {
    // missing: out of date
  }
  if (committed !== text) {
    process.stderr.write(`Out of date: ${ASYNCAPI_PATH}. Run \`npm run asyncapi\` and commit the result.\n`);
    process.exit(1);
  }
}

if (require.main === module) main(process.argv[2]);
