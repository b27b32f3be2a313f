import { Logger } from '@nestjs/common';
import { MessageTemplateProvider, ProviderTemplate, SubmissionOutcome, TemplateAccount } from './message-template.provider';

export interface WhatsAppCloudSettings {
  baseUrl: string;
  version: string;
  accessToken?: string;
  timeoutMs: number;
}

/** The provider's error object (`{error: {...}}`). */
interface GraphError {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_msg?: string;
}

/** "A template with this name and language already exists": an earlier attempt of ours got through. */
const TEMPLATE_ALREADY_EXISTS = 2388024;
/** Graph codes that say "not now" rather than "not this template": unknown/service errors, throttling, expired token. */
const TRANSIENT_CODES = new Set([1, 2, 4, 17, 32, 190, 613, 80008, 130429, 131000]);

/**
 * WhatsApp Business Cloud API adapter (graph.facebook.com). There is no
 * maintained official Node SDK for it, so it speaks HTTP with fetch, with a
 * time limit per call; retries belong to the durable submission job.
 */
export class WhatsAppCloudMessageTemplateProvider extends MessageTemplateProvider {
  private readonly logger = new Logger('WhatsAppCloud');

  constructor(private readonly settings: WhatsAppCloudSettings) {
    super();
  }

  async submit(account: TemplateAccount, template: ProviderTemplate): Promise<SubmissionOutcome> {
    const created = await this.call('POST', `/${encodeURIComponent(account.accountID)}/message_templates`, template);
    if (created.kind === 'unavailable') return created;
    if (created.ok) return this.accepted(created.body);
    const error = (created.body.error ?? {}) as GraphError;
    if (error.error_subcode === TEMPLATE_ALREADY_EXISTS) return this.adoptExisting(account, template);
    if (created.status === 408 || created.status === 429 || created.status >= 500 || created.status === 401 || created.status === 403) {
      return { kind: 'unavailable', reason: `HTTP ${created.status}: ${error.message ?? 'no message'}` };
    }
    if (error.code !== undefined && TRANSIENT_CODES.has(error.code)) return { kind: 'unavailable', reason: `code ${error.code}: ${error.message ?? ''}` };
    return {
      kind: 'refused',
      errorCode: error.error_subcode ?? error.code ?? created.status,
      errorMessage: error.error_user_msg ?? error.message ?? `HTTP ${created.status}`,
      raw: created.body,
    };
  }

  /** The template an earlier, unanswered attempt created: same name, same language. */
  private async adoptExisting(account: TemplateAccount, template: ProviderTemplate): Promise<SubmissionOutcome> {
    const query = new URLSearchParams({ name: template.name, fields: 'id,name,status,category,language' });
    const found = await this.call('GET', `/${encodeURIComponent(account.accountID)}/message_templates?${query}`);
    if (found.kind === 'unavailable') return found;
    const match = Array.isArray(found.body.data)
      ? (found.body.data as Record<string, unknown>[]).find((item) => item.name === template.name && item.language === template.language)
      : undefined;
    if (!found.ok || !match) return { kind: 'unavailable', reason: 'template reported as existing but not found' };
    return this.accepted(match);
  }

  private accepted(body: Record<string, unknown>): SubmissionOutcome {
    if (typeof body.id !== 'string' && typeof body.id !== 'number') return { kind: 'unavailable', reason: 'answer without an id' };
    return { kind: 'accepted', externalID: String(body.id), providerStatus: typeof body.status === 'string' ? body.status : 'PENDING', raw: body };
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ kind: 'answer'; ok: boolean; status: number; body: Record<string, unknown> } | { kind: 'unavailable'; reason: string }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.settings.accessToken) headers.authorization = `Bearer ${this.settings.accessToken}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await fetch(`${this.settings.baseUrl.replace(/\/+$/, '')}/${this.settings.version}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return { kind: 'unavailable', reason: `HTTP ${response.status} without a JSON object` };
      }
      return { kind: 'answer', ok: response.ok, status: response.status, body: parsed as Record<string, unknown> };
    } catch (error) {
      this.logger.warn({ err: error }, `provider ${method} failed`);
      return { kind: 'unavailable', reason: error instanceof Error ? error.message : String(error) };
    }
  }
}
