import type { AuditRecord, AuditTrail } from '@platform/audit';
import { hashSecretToken, trustedTenantScope } from '@platform/auth';
import type { CredentialStore, TenantScope } from '@platform/auth';
import { describe, expect, it } from 'vitest';
import { fake, RecordingWebhookEvents, transactionOn } from '@platform/testing';
import { BillingProvider } from './billing/billing.provider';
import type { InstallIntentReconciler } from './install-intent.reconciler';
import type { InstallIntentsRepository, NewInstallIntent } from './install-intents.repository';
import { InstallPluginConnectionUseCase } from './install-plugin-connection.use-case';
import { InstallProvisioning } from './install-provisioning';
import type { InstallTarget, NewPluginConnection, PluginConnectionInstallsRepository } from './plugin-connection-installs.repository';
import { VmProvider } from './vms/vm.provider';
import { NOT_A_TRANSPORT_REQUEST } from '../../test/doubles/handled-transport-requests.fakes';

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
    return fake<PluginConnectionInstallsRepository>({
      findTarget: async (_scope: TenantScope, id: string) => (id === pluginID ? this.target : undefined),
      transaction: transactionOn(),
      insert: async (scope: TenantScope, connection: NewPluginConnection) => {
        if (this.insertMeets === 'failure') throw new Error('connection reset');
        if (this.insertMeets === 'concurrent-install') return 'already-installed';
        this.written.push({ scope, connection });
        return 'inserted';
      },
    });
  }
}

/** Intents as the repository keeps them: opened, closed with the connection, or handed to the reconciler. */
class FakeIntents {
  readonly opened: NewInstallIntent[] = [];
  readonly installed: string[] = [];
  readonly handedOver: string[] = [];

  asRepository(): InstallIntentsRepository {
    return fake<InstallIntentsRepository>({
      open: async (intent: NewInstallIntent) => {
        this.opened.push(intent);
        return { generation: 0 };
      },
      markInstalled: async (id: string) => {
        this.installed.push(id);
        return true;
      },
      handOver: async (id: string) => void this.handedOver.push(id),
    });
  }
}

class FakeBilling extends BillingProvider {
  readonly created: { subscriptionID: string; priceID: string; idempotencyKey: string }[] = [];
  readonly canceled: string[] = [];
  fail = false;

  async createSubscriptionItem(input: { subscriptionID: string; priceID: string; idempotencyKey: string }): Promise<string> {
    if (this.fail) throw new Error('503');
    this.created.push(input);
    return `si_${this.created.length}`;
  }

  async cancelSubscriptionItem(subscriptionItemID: string): Promise<'canceled'> {
    this.canceled.push(subscriptionItemID);
    return 'canceled';
  }
}

class FakeVms extends VmProvider {
  readonly created: { image: string; tenantID: string; pluginConnectionID: string; idempotencyKey: string }[] = [];
  readonly deleted: string[] = [];
  fail = false;

  async createVm(input: { image: string; tenantID: string; pluginConnectionID: string; idempotencyKey: string }): Promise<string> {
    if (this.fail) throw new Error('timeout');
    this.created.push(input);
    return `vm-${this.created.length}`;
  }

  async deleteVm(vmID: string): Promise<void> {
    this.deleted.push(vmID);
  }
}

function useCase(target: Partial<InstallTarget> = {}) {
  const installs = new FakeInstalls({ pluginName: 'Central de ajuda', kind: 'plain', price: null, image: null, subscription: null, installed: false, ...target });
  const billing = new FakeBilling();
  const vms = new FakeVms();
  const audited: AuditRecord[] = [];
  const audit = fake<AuditTrail>({ record: async (_runner: unknown, _scope: unknown, record: AuditRecord) => void audited.push(record) });
  const intents = new FakeIntents();
  const nudges: number[] = [];
  const reconciler = fake<InstallIntentReconciler>({ nudge: () => void nudges.push(1) });
  const forgotten: string[] = [];
  const credentials = fake<CredentialStore>({ forgetUnknownConnection: async (id: string) => void forgotten.push(id) });
  const webhooks = new RecordingWebhookEvents();
  const install = new InstallPluginConnectionUseCase(
    installs.asRepository(),
    intents.asRepository(),
    new InstallProvisioning(billing, vms),
    reconciler,
    audit,
    5,
    credentials,
    webhooks.asEvents(), NOT_A_TRANSPORT_REQUEST,
  );
  return {
    webhooks,
    installs,
    intents,
    nudges,
    forgotten,
    billing,
    vms,
    audited,
    execute: (plugin = pluginID, requestKey?: string) => install.execute({ scope: trustedTenantScope(tenantID), pluginID: plugin, requestKey }),
  };
}

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { key?: string; fields?: unknown }) => error,
  );

describe('InstallPluginConnectionUseCase', () => {
  it('writes a plain connection with the hash of the token it answers, once', async () => {
    const { installs, billing, vms, audited, forgotten, execute } = useCase();
    const reply = await execute();
    expect(reply).toMatchObject({ pluginID, kind: 'plain' });
    // An "unknown connection" entry cached before the commit is cleared, so the new token works at once.
    expect(forgotten).toEqual([reply.pluginConnectionID]);
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
          subscriptionItemID: null,
          vmID: null,
        },
      },
    ]);
    expect([billing.created, vms.created]).toEqual([[], []]);
  });

  it('emits pluginConnection.installed with the connection, in the tenant', async () => {
    const { webhooks, execute } = useCase();
    const reply = await execute();
    expect(webhooks.events.map(({ tenantID: tenant, event }) => ({ tenant, event }))).toEqual([
      {
        tenant: tenantID,
        event: {
          type: 'pluginConnection.installed',
          subject: `pluginConnection:${reply.pluginConnectionID}`,
          data: { pluginConnectionID: reply.pluginConnectionID, pluginID, pluginName: 'Central de ajuda' },
        },
      },
    ]);
  });

  it("adds a paid plugin's price to the tenant's subscription, keyed by the new connection, and records the item", async () => {
    const { installs, billing, execute } = useCase({ kind: 'paid', price: 'price_1', subscription: 'sub_1' });
    const reply = await execute();
    expect(billing.created).toEqual([{ subscriptionID: 'sub_1', priceID: 'price_1', idempotencyKey: `install-${reply.pluginConnectionID}` }]);
    expect(installs.written[0].connection).toMatchObject({ kind: 'paid', subscriptionItemID: 'si_1', vmID: null });
  });

  it('creates a VM of the plugin image for a hosted plugin, labelled with the tenant and the connection', async () => {
    const { installs, vms, execute } = useCase({ kind: 'hosted', image: 'helpdesk:1' });
    const reply = await execute();
    expect(vms.created).toEqual([{ image: 'helpdesk:1', tenantID, pluginConnectionID: reply.pluginConnectionID, idempotencyKey: `install-${reply.pluginConnectionID}` }]);
    expect(installs.written[0].connection).toMatchObject({ kind: 'hosted', subscriptionItemID: null, vmID: 'vm-1' });
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

  it('answers 502 5002 and writes no connection when the billing provider fails', async () => {
    const { installs, billing, execute } = useCase({ kind: 'paid', price: 'price_1', subscription: 'sub_1' });
    billing.fail = true;
    expect(await errorOf(execute())).toMatchObject({ key: 'BadGateway' });
    expect(installs.written).toEqual([]);
  });

  it('answers 502 5002 and writes no connection when the VM provider fails', async () => {
    const { installs, vms, execute } = useCase({ kind: 'hosted', image: null });
    vms.fail = true;
    expect(await errorOf(execute())).toMatchObject({ key: 'BadGateway' });
    expect(installs.written).toEqual([]);
  });

  it('writes the intent before calling the provider, and closes it with the connection', async () => {
    const { intents, billing, execute } = useCase({ kind: 'paid', price: 'price_1', subscription: 'sub_1' });
    billing.fail = true;
    await errorOf(execute());
    // eslint-disable-next-line @typescript-eslint/naming-convention -- the keys stored in provider_request rows (ProviderRequest)
    expect(intents.opened).toMatchObject([{ tenantID, pluginID, kind: 'paid', providerRequest: { subscriptionId: 'sub_1', priceId: 'price_1' }, leaseSeconds: 5 }]);
    billing.fail = false;
    const reply = await execute();
    expect(intents.installed).toEqual([reply.pluginConnectionID]);
  });

  it('derives the connection id, and so the provider key, from the client key: a retry asks the provider with the same key', async () => {
    const { billing, execute } = useCase({ kind: 'paid', price: 'price_1', subscription: 'sub_1' });
    const requestKey = 'e'.repeat(64);
    const first = await execute(pluginID, requestKey);
    const again = await execute(pluginID, requestKey);
    expect(again.pluginConnectionID).toBe(first.pluginConnectionID);
    expect(billing.created.map((call) => call.idempotencyKey)).toEqual([`install-${first.pluginConnectionID}`, `install-${first.pluginConnectionID}`]);
  });

  it('leaves the subscription item to the reconciler and answers 409 when a concurrent install wrote its connection first', async () => {
    const { installs, intents, nudges, billing, audited, execute } = useCase({ kind: 'paid', price: 'price_1', subscription: 'sub_1' });
    installs.insertMeets = 'concurrent-install';
    expect(await errorOf(execute())).toMatchObject({ key: 'PluginAlreadyInstalled' });
    expect(billing.canceled).toEqual([]);
    expect(intents.handedOver).toEqual([intents.opened[0].id]);
    expect(nudges).toHaveLength(1);
    expect(audited).toEqual([]);
  });

  it('hands the intent to the reconciler and passes the error on when the connection cannot be written', async () => {
    const { installs, intents, vms, execute } = useCase({ kind: 'hosted', image: 'helpdesk:1' });
    installs.insertMeets = 'failure';
    expect(await errorOf(execute())).toMatchObject({ message: 'connection reset' });
    expect(vms.deleted).toEqual([]);
    expect(intents.handedOver).toEqual([intents.opened[0].id]);
  });
});
