import { createHmac, randomInt } from 'node:crypto';
import { once } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * How the stub answers template creation:
 * - `accept`: creates the template, answers `{id, status: "PENDING", category}`;
 * - `refuse`: answers 400 with the provider's error object (`refusal`);
 * - `down`: answers 503 with a transient error (code 2);
 * - `hang`: never answers (the caller's timeout fires);
 * - `accept-then-hang`: creates the template but never answers (a lost answer); a
 *   later attempt at the same template gets no answer either, so it cannot adopt
 *   the template until the mode changes.
 */
export type WhatsAppStubMode = 'accept' | 'refuse' | 'down' | 'hang' | 'accept-then-hang';

export interface StubTemplate {
  id: string;
  accountID: string;
  name: string;
  language: string;
  category: string;
  status: string;
  components: unknown[];
  parameter_format?: string;
}

export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface StubRefusal {
  code: number;
  error_subcode: number;
  message: string;
  error_user_title: string;
  error_user_msg: string;
}

const NAME = /^[a-z0-9_]{1,512}$/;
const CATEGORIES = new Set(['MARKETING', 'UTILITY', 'AUTHENTICATION']);

/**
 * A local stand-in for the WhatsApp Business Cloud API's template subset
 * (docs/external-providers.md, Message templates): `POST /{version}/{WABA_ID}/message_templates`,
 * `GET /{version}/{WABA_ID}/message_templates?name=`, and the
 * `message_template_status_update` webhook, signed like the provider signs
 * it. Failure and latency modes let tests and the sandbox play outages.
 */
export class WhatsAppTemplateStub {
  mode: WhatsAppStubMode = 'accept';
  /** Added before every answer. */
  latencyMs = 0;
  refusal: StubRefusal = {
    code: 100,
    error_subcode: 2388299,
    message: 'Invalid parameter',
    error_user_title: 'Template content not allowed',
    error_user_msg: 'Variables cannot be at the start or end of the template.',
  };
  /** Every request received, oldest first. */
  readonly requests: StubRequest[] = [];
  readonly templates = new Map<string, StubTemplate>();
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(port = 0): Promise<WhatsAppTemplateStub> {
    const handlers: { handle?: (request: IncomingMessage, response: ServerResponse) => Promise<void> } = {};
    const server = createServer((request, response) => {
      handlers.handle?.(request, response).catch(() => response.writeHead(500).end());
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    const stub = new WhatsAppTemplateStub(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    handlers.handle = (request, response) => stub.handle(request, response);
    server.on('connection', (socket) => {
      stub.sockets.add(socket);
      socket.once('close', () => stub.sockets.delete(socket));
    });
    return stub;
  }

  /** Template creations received (whatever the mode answered). */
  createRequests(): StubRequest[] {
    return this.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/message_templates'));
  }

  reset(): void {
    this.mode = 'accept';
    this.latencyMs = 0;
    this.requests.length = 0;
    this.templates.clear();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server.close();
    await once(this.server, 'close');
  }

  /**
   * Delivers a status update for a template to `webhookUrl`, signed with
   * `appSecret` as the provider does (X-Hub-Signature-256). Returns the
   * receiver's status and body.
   */
  async sendStatusUpdate(
    webhookUrl: string,
    appSecret: string,
    update: { templateID: string; event: string; reason?: string; time?: number; accountID?: string; signature?: string },
  ): Promise<{ status: number; body: unknown }> {
    const template = this.templates.get(update.templateID);
    if (template && update.event) template.status = update.event;
    const payload = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: update.accountID ?? template?.accountID ?? '0',
          time: update.time ?? Math.floor(Date.now() / 1000),
          changes: [
            {
              field: 'message_template_status_update',
              value: {
                event: update.event,
                message_template_id: Number(update.templateID),
                message_template_name: template?.name ?? 'unknown',
                message_template_language: template?.language ?? 'pt_BR',
                reason: update.reason ?? 'NONE',
              },
            },
          ],
        },
      ],
    };
    const raw = JSON.stringify(payload);
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': update.signature ?? signWebhookBody(appSecret, raw) },
      body: raw,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const url = new URL(request.url ?? '/', this.baseUrl);
    this.requests.push({ method: request.method ?? 'GET', path: url.pathname, headers: request.headers, body });
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));

    const match = /^\/v\d+\.\d+\/([^/]+)\/message_templates$/.exec(url.pathname);
    if (!match) return this.send(response, 404, graphError(803, 'Unknown path components', 0));
    if (!request.headers.authorization?.startsWith('Bearer ')) return this.send(response, 401, graphError(190, 'Invalid OAuth access token.', 0));
    const accountID = decodeURIComponent(match[1]);
    if (request.method === 'GET') return this.list(response, accountID, url.searchParams.get('name'));
    if (request.method === 'POST') return this.create(response, accountID, body);
    return this.send(response, 405, graphError(100, 'Unsupported method', 0));
  }

  private list(response: ServerResponse, accountID: string, name: string | null): void {
    const data = [...this.templates.values()]
      .filter((template) => template.accountID === accountID && (name === null || template.name === name))
      .map(({ id, name: templateName, status, category, language }) => ({ id, name: templateName, status, category, language }));
    this.send(response, 200, { data, paging: {} });
  }

  private create(response: ServerResponse, accountID: string, body: unknown): void {
    switch (this.mode) {
      case 'hang':
        return;
      case 'down':
        return this.send(response, 503, graphError(2, 'Service temporarily unavailable', 0));
      case 'refuse':
        return this.send(response, 400, { error: { ...this.refusal, type: 'OAuthException', fbtrace_id: 'stub' } });
      default:
        break;
    }
    const template = body as Partial<StubTemplate> | undefined;
    if (!template || typeof template.name !== 'string' || !NAME.test(template.name)) {
      return this.send(response, 400, graphError(100, 'Invalid parameter', 2388043, 'Template name must be lowercase letters, numbers and underscores.'));
    }
    if (!CATEGORIES.has(String(template.category)) || typeof template.language !== 'string' || !Array.isArray(template.components)) {
      return this.send(response, 400, graphError(100, 'Invalid parameter', 2388042, 'Category, language and components are required.'));
    }
    if (!template.components.some((component) => (component as { type?: string }).type === 'BODY')) {
      return this.send(response, 400, graphError(100, 'Invalid parameter', 2388040, 'A BODY component is required.'));
    }
    const duplicate = [...this.templates.values()].some(
      (existing) => existing.accountID === accountID && existing.name === template.name && existing.language === template.language,
    );
    if (duplicate) {
      if (this.mode === 'accept-then-hang') return;
      return this.send(response, 400, graphError(100, 'Invalid parameter', 2388024, 'Content in this language already exists.'));
    }
    const id = String(100_000_000_000_000 + randomInt(0, 2 ** 47));
    this.templates.set(id, {
      id,
      accountID,
      name: template.name,
      language: template.language,
      category: String(template.category),
      status: 'PENDING',
      components: template.components,
      parameter_format: template.parameter_format,
    });
    if (this.mode === 'accept-then-hang') return;
    this.send(response, 200, { id, status: 'PENDING', category: template.category });
  }

  private send(response: ServerResponse, status: number, body: unknown): void {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
}

function graphError(code: number, message: string, subcode: number, userMessage?: string): { error: Record<string, unknown> } {
  const error: Record<string, unknown> = { message, type: 'OAuthException', code, fbtrace_id: 'stub' };
  if (subcode) error.error_subcode = subcode;
  if (userMessage) error.error_user_msg = userMessage;
  return { error };
}

/** `sha256=<hex HMAC-SHA256>` of a raw webhook body, as the provider signs deliveries. */
export function signWebhookBody(appSecret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}
