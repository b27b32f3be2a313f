import { randomBytes } from 'node:crypto';
import { StubServer } from './stub-server';

/**
 * The hosted-VM provider's REST contract (docs/providers/vm-provider.md):
 * `POST /vms` creates (an `Idempotency-Key` seen before answers the same VM
 * again), `DELETE /vms/{id}` deletes (404 once gone).
 */
export class VmStub extends StubServer {
  readonly vms = new Map<string, { id: string; image: string; labels: Record<string, string> }>();
  /** Every VM ever created, by id (deleted ones included). */
  readonly created = new Map<string, { id: string; image: string; labels: Record<string, string> }>();
  private readonly byIdempotencyKey = new Map<string, { id: string; image: string; labels: Record<string, string> }>();

  constructor() {
    super((request, body, url) => {
      const match = /^\/vms\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'POST' && url.pathname === '/vms') {
        const input = JSON.parse(body || '{}') as { image?: string; labels?: Record<string, string> };
        const key = request.headers['idempotency-key'];
        const replay = typeof key === 'string' ? this.byIdempotencyKey.get(key) : undefined;
        if (replay) return { status: 201, body: { ...replay, status: 'provisioning' } };
        const vm = { id: `vm-${randomBytes(6).toString('hex')}`, image: input.image ?? 'default', labels: input.labels ?? {} };
        this.vms.set(vm.id, vm);
        this.created.set(vm.id, vm);
        if (typeof key === 'string') this.byIdempotencyKey.set(key, vm);
        return { status: 201, body: { ...vm, status: 'provisioning' } };
      }
      if (request.method === 'DELETE' && match) {
        const id = decodeURIComponent(match[1]);
        return this.vms.delete(id) ? { status: 204 } : { status: 404, body: { error: 'vm_not_found' } };
      }
      return undefined;
    });
  }

  /** Successful deletions of one VM. */
  successfulDeletions(id: string): number {
    return this.calls.filter((call) => call.method === 'DELETE' && call.path === `/vms/${id}` && call.status === 204).length;
  }

  addVm(id: string): void {
    this.vms.set(id, { id, image: 'demo', labels: {} });
  }
}
