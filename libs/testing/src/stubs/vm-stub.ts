import { randomBytes } from 'node:crypto';
import { StubServer } from './stub-server';

/**
 * The hosted-VM provider's REST contract (docs/providers/vm-provider.md):
 * `POST /vms` creates, `DELETE /vms/{id}` deletes (404 once gone).
 */
export class VmStub extends StubServer {
  readonly vms = new Map<string, { id: string; image: string; labels: Record<string, string> }>();

  constructor() {
    super((request, body, url) => {
      const match = /^\/vms\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'POST' && url.pathname === '/vms') {
        const input = JSON.parse(body || '{}') as { image?: string; labels?: Record<string, string> };
        const vm = { id: `vm-${randomBytes(6).toString('hex')}`, image: input.image ?? 'default', labels: input.labels ?? {} };
        this.vms.set(vm.id, vm);
        return { status: 201, body: { ...vm, status: 'provisioning' } };
      }
      if (request.method === 'DELETE' && match) {
        const id = decodeURIComponent(match[1]);
        return this.vms.delete(id) ? { status: 204 } : { status: 404, body: { error: 'vm_not_found' } };
      }
      return undefined;
    });
  }

  addVm(id: string): void {
    this.vms.set(id, { id, image: 'demo', labels: {} });
  }
}
