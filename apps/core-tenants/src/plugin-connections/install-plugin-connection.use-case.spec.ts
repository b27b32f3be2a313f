import type { AuditRecord, AuditTrail } from '@platform/audit';
import { hashSecretToken, trustedTenantScope } from '@platform/auth';
import type { CredentialStore, TenantScope } from '@platform/auth';
import { describe, expect, it } from 'vitest';
import { BillingProvider } from './billing/billing.provider';
import { InstallPluginConnectionUseCase } from './install-plugin-connection.use-case';
import type { InstallTarget, NewPluginConnection, PluginConnectionInstallsRepository } from './plugin-connection-installs.repository';
import { VmProvider } from './vms/vm.provider';

const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const pluginID = '11111111-0000-4000-8000-000000000001';
const unknownPlugin = '11111111-0000-4000-8000-0000000000ff';

/** The plugin and tenant as the repository reads them, and the connections it wrote. */
class FakeInstalls {
  readonly written: { scope: TenantScope; connection: NewPluginConnection }[] = [];
  /** What the insert meets: nothing, a concurrent install of the same plugin, or a database failure. */
  insertMeets: 'nothing' | 'concurrent-install' | 'failure' = 'nothing';

  constructor(private readonly target: InstallTarget) {}

  asRepository(): PluginConnectionInstallsRepository {
    return {
      findTarget: async (_scope: TenantScope, id: string) => (id === pluginID ? this.target : undefined),
      transaction: async <T>(work: (runner: unknown) => Promise<T>) => work({ query: async () => [] }),
      insert: async (scope: TenantScope, connection: NewPluginConnection) => {
        if (this.insertMeets === 'failure') throw new Error('connection reset');
        if (this.insertMeets === 'concurrent-install') return 'already-installed';
        this.written.push({ scope, connection });
        return 'inserted';
      },
    } as unknown as PluginConnectionInstallsRepository;
  }
}

class FakeBilling extends BillingProvider {
  readonly created: { subscriptionId: string; priceId: string; idempotencyKey: string }[] = [];
  readonly canceled: string[] = [];
  fail = false;

  async createSubscriptionItem(input: { subscriptionId: string; priceId: string; idempotencyKey: string }): Promise<string> {
    if (this.fail) throw new Error('503');
    this.created.push(input);
    return `si_${this.created.length}`;
  }

  async cancelSubscriptionItem(subscriptionItemId: string): Promise<'canceled'> {
    this.canceled.push(subscriptionItemId);
    return 'canceled';
  }
}

class FakeVms extends VmProvider {
  readonly created: { image: string; tenantID: string; pluginConnectionID: string }[] = [];
  readonly deleted: string[] = [];
  fail = false;

  async createVm(input: { image: string; tenantID: string; pluginConnectionID: string }): Promise<string> {
    if (this.fail) throw new Error('timeout');
    this.created.push(input);
    return `vm-${this.created.length}`;
  }

  async deleteVm(vmId: string): Promise<void> {
    this.deleted.push(vmId);
  }
}

function useCase(target: Partial<InstallTarget> = {}) {
  const installs = new FakeInstalls({ kind: 'plain', price: null, image: null, subscription: null, installed: false, ...target });
  const billing = new FakeBilling();
  const vms = new FakeVms();
  const audited: AuditRecord[] = [];
  const audit = { record: async (_runner: unknown, _scope: unknown, record: AuditRecord) => void audited.push(record) } as unknown as AuditTrail;
  const credentials = { forgetUnknownConnection: async () => undefined } as unknown as CredentialStore;
  const install = new InstallPluginConnectionUseCase(installs.asRepository(), billing, vms, audit, credentials);
  return { installs, billing, vms, audited, execute: (plugin = pluginID) => install.execute({ scope: trustedTenantScope(tenantID), pluginID: plugin }) };
}

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { key?: string; fields?: unknown }) => error,
  );

describe('InstallPluginConnectionUseCase', () => {
  it('writes a plain connection with the hash of the token it answers, once', async () => {
    const { installs, billing, vms, audited, execute } = useCase();
    const reply = await execute();
    expect(reply).toMatchObject({ pluginID, kind: 'plain' });
    expect(audited).toEqual([
      { action: 'pluginConnection.installed', targetID: reply.pluginConnectionID, summary: { pluginID, kind: 'plain', billing: 'none', vm: 'none' } },
    ]);
    expect(installs.written).toEqual([
      {
        scope: { tenantID },
        connection: {
          pluginConnectionID: reply.pluginConnectionID,
          pluginID,
          kind: 'plain',
          tokenHash: hashSecretToken(reply.pluginConnectionToken),
          subscriptionItemId: null,
          vmId: null,
        },
      },
    ]);
    expect([billing.created, vms.created]).toEqual([[], []]);
  });

  it("adds a paid plugin's price to the tenant's subscription, keyed by the new connection, and records the item", async () => {
    const { installs, billing, execute } = useCase({ kind: 'paid', price: 'price_1', subscription: 'sub_1' });
    const reply = await execute();
    expect(billing.created).toEqual([{ subscriptionId: 'sub_1', priceId: 'price_1', idempotencyKey: `install-${reply.pluginConnectionID}` }]);
    expect(installs.written[0].connection).toMatchObject({ kind: 'paid', subscriptionItemId: 'si_1', vmId: null });
  });

  it('creates a VM of the plugin image for a hosted plugin, labelled with the tenant and the connection', async () => {
    const { installs, vms, execute } = useCase({ kind: 'hosted', image: 'helpdesk:1' });
    const reply = await execute();
    expect(vms.created).toEqual([{ image: 'helpdesk:1', tenantID, pluginConnectionID: reply.pluginConnectionID }]);
    expect(installs.written[0].connection).toMatchObject({ kind: 'hosted', subscriptionItemId: null, vmId: 'vm-1' });
  });

  it("answers 422 1002 on pluginID for a plugin that does not exist", async () => {
    const { installs, execute } = useCase();
    expect(await errorOf(execute(unknownPlugin))).toMatchObject({
      key: 'RequestValidation',
      fields: [{ field: 'pluginID', received: unknownPlugin, allowed: 'the id of an existing plugin' }],
    });
    expect(installs.written).toEqual([]);
  });

  it('answers 409 for a plugin already installed, before calling any provider', async () => {
    const { installs, vms, execute } = useCase({ kind: 'hosted', installed: true });
    expect(await errorOf(execute())).toMatchObject({ key: 'PluginAlreadyInstalled' });
    expect([vms.created, installs.written]).toEqual([[], []]);
  });

  it('refuses a paid plugin on a tenant without a billing subscription, and writes nothing', async () => {
    const { installs, billing, execute } = useCase({ kind: 'paid', price: 'price_1', subscription: null });
    expect(await errorOf(execute())).toMatchObject({ key: 'TenantBillingNotConfigured' });
    expect([billing.created, installs.written]).toEqual([[], []]);
  });

  it('answers 502 5002 and writes nothing when the billing provider fails', async () => {
    const { installs, billing, execute } = useCase({ kind: 'paid', price: 'price_1', subscription: 'sub_1' });
    billing.fail = true;
    expect(await errorOf(execute())).toMatchObject({ key: 'BadGateway' });
    expect(installs.written).toEqual([]);
  });

  it('answers 502 5002 and writes nothing when the VM provider fails', async () => {
    const { installs, vms, execute } = useCase({ kind: 'hosted', image: null });
    vms.fail = true;
    expect(await errorOf(execute())).toMatchObject({ key: 'BadGateway' });
    expect(installs.written).toEqual([]);
  });

  it('undoes the subscription item and answers 409 when a concurrent install wrote its connection first', async () => {
    const { installs, billing, audited, execute } = useCase({ kind: 'paid', price: 'price_1', subscription: 'sub_1' });
    installs.insertMeets = 'concurrent-install';
    expect(await errorOf(execute())).toMatchObject({ key: 'PluginAlreadyInstalled' });
    expect(billing.canceled).toEqual(['si_1']);
    expect(audited).toEqual([]);
  });

  it('deletes the VM it made and passes the error on when the connection cannot be written', async () => {
    const { installs, vms, execute } = useCase({ kind: 'hosted', image: 'helpdesk:1' });
    installs.insertMeets = 'failure';
    expect(await errorOf(execute())).toMatchObject({ message: 'connection reset' });
    expect(vms.deleted).toEqual(['vm-1']);
  });
});
