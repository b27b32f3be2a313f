import { currentRequestId, REQUEST_ID_HEADER } from '@platform/observability';
import { VmProvider, VmProviderError } from './vm.provider';

export interface RestVmSettings {
  baseUrl: string;
  token: string;
  timeoutMs: number;
}

/**
 * The VM provider's minimal REST contract over fetch (no SDK exists for it):
 * `POST /vms` and `DELETE /vms/{id}`, bearer token, the request id of the
 * client's request (`X-Request-Id`), every call bounded by a timeout. No
 * automatic retries: each call sits inside a client's request.
 */
export class RestVmProvider extends VmProvider {
  constructor(private readonly settings: RestVmSettings) {
    super();
  }

  async createVm(input: { image: string; tenantID: string; pluginConnectionID: string }): Promise<string> {
    const response = await this.call('POST', '/vms', {
      image: input.image,
      labels: { tenantID: input.tenantID, pluginConnectionID: input.pluginConnectionID },
    });
    if (response.status !== 201 && response.status !== 200) throw new VmProviderError(`creating the VM answered ${response.status}`);
    const body = (await response.json().catch(() => undefined)) as { id?: unknown } | undefined;
    if (typeof body?.id !== 'string' || body.id.length === 0) throw new VmProviderError('creating the VM answered no id');
    return body.id;
  }

  async deleteVm(vmId: string): Promise<void> {
    const response = await this.call('DELETE', `/vms/${encodeURIComponent(vmId)}`);
    if (response.status === 404 || response.ok) return;
    throw new VmProviderError(`deleting the VM answered ${response.status}`);
  }

  private async call(method: string, path: string, body?: object): Promise<Response> {
    const requestId = currentRequestId();
    try {
      const response = await fetch(`${this.settings.baseUrl.replace(/\/+$/, '')}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.settings.token}`,
          ...(requestId ? { [REQUEST_ID_HEADER]: requestId } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
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
