import type { AuditRecord, AuditTrail } from '@platform/audit';
import { trustedTenantScope } from '@platform/auth';
import type { CredentialStore, TenantScope } from '@platform/auth';
import type { PluginConnectionKind } from '@platform/database';
import { describe, expect, it } from 'vitest';
import { fake, FakeTenantAccess, RecordingWebhookEvents, transactionOn } from '@platform/testing';
import type { BillingCancellationWorker } from './billing/billing-cancellation.worker';
import { DeletePluginConnectionUseCase } from './delete-plugin-connection.use-case';
import { ClaimedConnection, ClaimRefusal, PluginConnectionRemovalsRepository } from './plugin-connection-removals.repository';
import { VmProvider } from './vms/vm.provider';
import { NOT_A_TRANSPORT_REQUEST } from '../../test/doubles/handled-transport-requests.fakes';

const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const pluginConnectionID = '3b241101-e2bb-4255-8caf-4136c566a962';
const LEASE_MS = 1_000;

/** The connection's row as the repository keeps it, with a clock the tests move. */
class FakeRemovals {
  now = 0;
  status: 'live' | 'removed' = 'live';
  claim: { id: string; until: number } | undefined;
  cancellations = 0;
  /** Claims refused because another removal held the connection. */
  refusedClaims = 0;

  constructor(private readonly kind: PluginConnectionKind) {}

  async claimFor(claimID: string): Promise<ClaimedConnection | ClaimRefusal> {
    if (this.status !== 'live') return 'not-live';
    if (this.claim && this.claim.until > this.now) {
      this.refusedClaims += 1;
      return 'claimed-elsewhere';
    }
    this.claim = { id: claimID, until: this.now + LEASE_MS };
    return { pluginID: 'plugin-1', pluginName: 'Central de ajuda', kind: this.kind, vmID: this.kind === 'hosted' ? 'vm-1' : null };
  }

  asRepository(): PluginConnectionRemovalsRepository {
    return fake<PluginConnectionRemovalsRepository>({
      claim: async (_scope: TenantScope, _id: string, claimID: string) => this.claimFor(claimID),
      holds: async (_id: string, claimID: string) => this.claim?.id === claimID,
      release: async (_id: string, claimID: string) => {
        if (this.claim?.id === claimID) this.claim = undefined;
      },
      transaction: transactionOn(),
      complete: async () => {
        if (this.status !== 'live') return false;
        this.status = 'removed';
        this.claim = undefined;
        if (this.kind === 'paid') this.cancellations += 1;
        return true;
      },
    });
  }
}

/** The removal mark and tombstone of the connection, as CredentialStore keeps them in Redis. */
class FakeCredentials {
  marked = false;
  revoked = false;
  failToMark = false;

  asStore(): CredentialStore {
    return fake<CredentialStore>({
      beginRemoval: async () => {
        if (this.failToMark) throw new Error('Redis is away');
        this.marked = true;
      },
      abandonRemoval: async () => {
        this.marked = false;
      },
      revokeConnection: async () => {
        this.revoked = true;
      },
    });
  }
}

/** A VM provider whose deletes the test answers one by one. */
class ControlledVms extends VmProvider {
  readonly pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  async createVm(): Promise<string> {
    throw new Error('not used');
  }
  deleteVm(): Promise<void> {
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  }
}

function useCase(kind: PluginConnectionKind) {
  const removals = new FakeRemovals(kind);
  const credentials = new FakeCredentials();
  const vms = new ControlledVms();
  /** Standings the use case made every replica forget, and cancellation rounds it asked for. */
  const access = new FakeTenantAccess();
  const effects = { forgotten: access.forgotten, nudges: 0 };
  const cancellations = fake<BillingCancellationWorker>({
    nudge: () => {
      effects.nudges += 1;
    },
  });
  const audited: AuditRecord[] = [];
  const audit = fake<AuditTrail>({ record: async (_runner: unknown, _scope: unknown, record: AuditRecord) => void audited.push(record) });
  const webhooks = new RecordingWebhookEvents();
  const remove = new DeletePluginConnectionUseCase(removals.asRepository(), vms, credentials.asStore(), access.asAccess(), cancellations, LEASE_MS, audit, webhooks.asEvents(), NOT_A_TRANSPORT_REQUEST);
  return { webhooks, removals, credentials, vms, effects, audited, execute: () => remove.execute({ scope: trustedTenantScope(tenantID), pluginConnectionID }) };
}

async function outcomeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'deleted';
  } catch (error) {
    return (error as { key?: string }).key ?? String(error);
  }
}

/** Waits, letting the use case's promise callbacks and polling run, until the condition holds. */
const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('DeletePluginConnectionUseCase', () => {
  it('removes a paid connection, records its cancellation and revokes its token', async () => {
    const { removals, credentials, effects, audited, execute } = useCase('paid');
    expect(await outcomeOf(execute())).toBe('deleted');
    expect(removals).toMatchObject({ status: 'removed', cancellations: 1, claim: undefined });
    expect(audited).toEqual([
      { action: 'pluginConnection.deleted', targetID: pluginConnectionID, summary: { pluginID: 'plugin-1', kind: 'paid', vm: 'none', billing: 'cancellation scheduled' } },
    ]);
    expect(credentials).toMatchObject({ marked: true, revoked: true });
    expect(effects).toEqual({ forgotten: [`${tenantID} plugin:plugin-1`], nudges: 1 });
  });

  it('emits pluginConnection.removed once the removal completes, and nothing when it does not', async () => {
    const removed = useCase('plain');
    expect(await outcomeOf(removed.execute())).toBe('deleted');
    expect(removed.webhooks.events.map(({ tenantID: tenant, event }) => ({ tenant, event }))).toEqual([
      {
        tenant: tenantID,
        event: {
          type: 'pluginConnection.removed',
          subject: `pluginConnection:${pluginConnectionID}`,
          data: { pluginConnectionID, pluginID: 'plugin-1', pluginName: 'Central de ajuda' },
        },
      },
    ]);
    expect(await outcomeOf(removed.execute())).toBe('PluginConnectionNotFound');
    expect(removed.webhooks.types()).toEqual(['pluginConnection.removed']);
  });

  it('removes a plain connection without asking for a cancellation round', async () => {
    const { removals, effects, execute } = useCase('plain');
    expect(await outcomeOf(execute())).toBe('deleted');
    expect(removals).toMatchObject({ status: 'removed', cancellations: 0 });
    expect(effects.nudges).toBe(0);
  });

  it('gives the claim and the removal mark up when the VM provider fails: the connection is as before', async () => {
    const { removals, credentials, vms, effects, audited, execute } = useCase('hosted');
    const deleting = execute();
    await until(() => vms.pending.length === 1);
    expect(removals.claim).toBeDefined();
    vms.pending[0].reject(new Error('503'));
    expect(await outcomeOf(deleting)).toBe('BadGateway');
    expect(audited).toEqual([]);
    expect(removals).toMatchObject({ status: 'live', claim: undefined });
    expect(credentials).toMatchObject({ marked: false, revoked: false });
    expect(effects).toEqual({ forgotten: [], nudges: 0 });
  });

  it('gives the claim up and changes nothing when Redis cannot record the removal mark', async () => {
    const { removals, credentials, vms, execute } = useCase('hosted');
    credentials.failToMark = true;
    expect(await outcomeOf(execute())).toBe('InternalServiceUnavailable');
    expect(removals).toMatchObject({ status: 'live', claim: undefined });
    expect(vms.pending).toHaveLength(0);
  });

  it('makes a second delete wait for the first: 404 1054 once the first removed the connection', async () => {
    const { removals, vms, execute } = useCase('hosted');
    const first = execute();
    await until(() => vms.pending.length === 1);
    const second = execute();
    await until(() => removals.refusedClaims >= 3);
    expect(vms.pending).toHaveLength(1);
    vms.pending[0].resolve();
    expect([await outcomeOf(first), await outcomeOf(second)]).toEqual(['deleted', 'PluginConnectionNotFound']);
    expect(vms.pending).toHaveLength(1);
  });

  it('makes a second delete wait for the first, and try itself once the first failed', async () => {
    const { removals, vms, execute } = useCase('hosted');
    const first = execute();
    await until(() => vms.pending.length === 1);
    const second = execute();
    vms.pending[0].reject(new Error('503'));
    expect(await outcomeOf(first)).toBe('BadGateway');
    await until(() => vms.pending.length === 2);
    vms.pending[1].resolve();
    expect(await outcomeOf(second)).toBe('deleted');
    expect(removals.status).toBe('removed');
  });

  it('takes over the claim of a removal that never finished once its lease has run out', async () => {
    const { removals, credentials, vms, execute } = useCase('hosted');
    removals.claim = { id: 'claim-of-a-replica-that-died', until: LEASE_MS };
    const deleting = execute();
    await until(() => removals.refusedClaims >= 3);
    expect(vms.pending).toHaveLength(0);
    removals.now = LEASE_MS;
    await until(() => vms.pending.length === 1);
    vms.pending[0].resolve();
    expect(await outcomeOf(deleting)).toBe('deleted');
    expect(credentials.revoked).toBe(true);
  });

  it('leaves the removal mark of a removal that took over its lapsed claim when its own VM call fails', async () => {
    const { removals, credentials, vms, execute } = useCase('hosted');
    const slow = execute();
    await until(() => vms.pending.length === 1);
    removals.now = LEASE_MS;
    const takeover = execute();
    await until(() => vms.pending.length === 2);
    vms.pending[0].reject(new Error('timeout'));
    expect(await outcomeOf(slow)).toBe('BadGateway');
    expect(credentials.marked).toBe(true);
    expect(removals.claim).toBeDefined();
    vms.pending[1].resolve();
    expect(await outcomeOf(takeover)).toBe('deleted');
  });

  it('answers 404 1054 when a removal that took over its lapsed claim completed first', async () => {
    const { removals, vms, execute } = useCase('hosted');
    const slow = execute();
    await until(() => vms.pending.length === 1);
    removals.now = LEASE_MS;
    const takeover = execute();
    await until(() => vms.pending.length === 2);
    vms.pending[1].resolve();
    expect(await outcomeOf(takeover)).toBe('deleted');
    vms.pending[0].resolve();
    expect(await outcomeOf(slow)).toBe('PluginConnectionNotFound');
  });

  it('answers 404 1054 for a connection that is not live', async () => {
    const { removals, execute } = useCase('plain');
    removals.status = 'removed';
    expect(await outcomeOf(execute())).toBe('PluginConnectionNotFound');
  });
});
