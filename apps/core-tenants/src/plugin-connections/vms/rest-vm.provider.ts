import { currentRequestID, REQUEST_ID_HEADER } from '@platform/observability';
import { VmProvider, VmProviderError } from './vm.provider';

export interface RestVmSettings {
  baseUrl: string;
  token: string;
  timeoutMs: number;
}

/**
 * The VM provider's minimal REST contract over fetch (no SDK exists for it):
 * `POST /vms` (with an `Idempotency-Key`) and `DELETE /vms/{id}`, bearer token, the request id of the
 * client's request (`X-Request-Id`), every call bounded by a timeout. No
 * automatic retries: each call sits inside a client's request.
 */
export class RestVmProvider extends VmProvider {
  constructor(private readonly settings: RestVmSettings) {
    super();
  }

  async createVm(input: { image: string; tenantID: string; pluginConnectionID: string; idempotencyKey: string }): Promise<string> {
    const response = await this.call(
      'POST',
      '/vms',
      { image: input.image, labels: { tenantID: input.tenantID, pluginConnectionID: input.pluginConnectionID } },
      { 'idempotency-key': input.idempotencyKey },
    );
    if (response.status !== 201 && response.status !== 200) {
      const refused = response.status >= 400 && response.status < 500 && response.status !== 409 && response.status !== 429;
      throw new VmProviderError(`creating the VM answered ${response.status}`, { refused });
    }
    const body = (await response.json().catch(() => undefined)) as { id?: unknown } | undefined;
    if (typeof body?.id !== 'string' || body.id.length === 0) throw new VmProviderError('creating the VM answered no id');
    return body.id;
  }

  async deleteVm(vmID: string): Promise<void> {
    const response = await this.call('DELETE', `/vms/${encodeURIComponent(vmID)}`);
    if (response.status === 404 || response.ok) return;
    throw new VmProviderError(`deleting the VM answered ${response.status}`);
  }

  private async call(method: string, path: string, body?: object, extraHeaders: Record<string, string> = {}): Promise<Response> {
    const requestID = currentRequestID();
    try {
      const response = await fetch(`${this.settings.baseUrl.replace(/\/+$/, '')}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.settings.token}`,
          ...(requestID ? { [REQUEST_ID_HEADER]: requestID } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...extraHeaders,
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      return response;
    } catch (error) {
      throw new VmProviderError(`${method} ${path} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
}
