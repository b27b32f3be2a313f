import { createTestDataSource, FixtureBuilder } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InstallIntentsRepository, NewInstallIntent, ProviderRequest } from './install-intents.repository';

// eslint-disable-next-line @typescript-eslint/naming-convention -- the keys stored in provider_request rows (ProviderRequest)
const PROVIDER_REQUEST: ProviderRequest = { subscriptionId: 'sub_1', priceId: 'price_1' };
// eslint-disable-next-line @typescript-eslint/naming-convention -- the keys stored in provider_request rows (ProviderRequest)
const NEW_PRICE_REQUEST: ProviderRequest = { subscriptionId: 'sub_1', priceId: 'price_2' };

/**
 * Install intents' SQL against PostgreSQL: opening one and taking it over on
 * a retry, every change naming the claim it acts under, the reconciler's
 * claim of lapsed intents, and the undone intent that records its
 * cancellation in the same statement.
 */
describe('InstallIntentsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let intents: InstallIntentsRepository;
  let tenantID: string;
  let pluginID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    intents = new InstallIntentsRepository(dataSource);
    const fixtures = new FixtureBuilder(dataSource);
    tenantID = await fixtures.tenant();
    pluginID = (await fixtures.plugin({ kind: 'paid' })).pluginID;
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    await dataSource.query('DELETE FROM plugin_connection_install_intents');
  });

  const intent = (overrides: Partial<NewInstallIntent> = {}): NewInstallIntent => ({
    id: randomUUID(),
    tenantID,
    pluginID,
    kind: 'paid',
    providerRequest: PROVIDER_REQUEST,
    claimID: randomUUID(),
    leaseSeconds: 60,
    headers: { 'x-request-id': 'req-1' },
    ...overrides,
  });
  const stateOf = async (id: string) =>
    ((await dataSource.query('SELECT state, generation, attempts, last_error AS "lastError" FROM plugin_connection_install_intents WHERE id = $1', [id])) as object[])[0];

  it('opens an intent, keeps a second request out while the first holds it, and lets only the holder mark it installed', async () => {
    const first = intent();
    expect(await intents.open(first)).toEqual({ generation: 0 });
    expect(await intents.open({ ...first, claimID: randomUUID() })).toEqual({ busy: 'in-progress' });
    expect(await intents.markInstalled(first.id, randomUUID())).toBe(false);
    expect(await intents.markInstalled(first.id, first.claimID)).toBe(true);
    expect(await intents.open({ ...first, claimID: randomUUID() })).toEqual({ busy: 'installed' });
  });

  it('takes over an intent whose claim lapsed or was handed over, and starts a new generation of an undone one', async () => {
    const lapsed = intent({ leaseSeconds: 0 });
    await intents.open(lapsed);
    const retry = { ...lapsed, claimID: randomUUID(), leaseSeconds: 60 };
    expect(await intents.open(retry)).toEqual({ generation: 0 });
    await intents.handOver(lapsed.id, retry.claimID, 600);
    const again = { ...lapsed, claimID: randomUUID() };
    expect(await intents.open(again)).toEqual({ generation: 0 });
    expect(await intents.markUndone(lapsed.id, again.claimID)).toBe(true);
    expect(await intents.open({ ...lapsed, claimID: randomUUID(), providerRequest: NEW_PRICE_REQUEST })).toEqual({ generation: 1 });
    expect(await stateOf(lapsed.id)).toEqual({ state: 'pending', generation: 1, attempts: 0, lastError: null });
  });

  it('keeps another tenant out of an intent id it does not own, even once the claim lapsed', async () => {
    const first = intent({ leaseSeconds: 0 });
    await intents.open(first);
    const otherTenant = await new FixtureBuilder(dataSource).tenant();
    expect(await intents.open({ ...first, tenantID: otherTenant, claimID: randomUUID() })).toEqual({ busy: 'in-progress' });
  });

  it('gives the reconciler the pending intent whose claim lapsed, under its own claim, and none while it holds it', async () => {
    const stalled = intent({ leaseSeconds: 0 });
    await intents.open(stalled);
    await intents.open(intent());
    const reconciler = randomUUID();
    expect(await intents.claimDue(reconciler, 60)).toEqual({
      id: stalled.id,
      tenantID,
      kind: 'paid',
      providerRequest: PROVIDER_REQUEST,
      generation: 0,
      attempts: 0,
      claimID: reconciler,
      headers: { 'x-request-id': 'req-1' },
      connected: false,
    });
    expect(await intents.claimDue(randomUUID(), 60)).toBeUndefined();
    // The stalled install lost its claim: it can no longer mark the intent installed.
    expect(await intents.markInstalled(stalled.id, stalled.claimID)).toBe(false);
  });

  it('records a failed attempt under the claim only, and plans the next one', async () => {
    const stalled = intent({ leaseSeconds: 0 });
    await intents.open(stalled);
    const reconciler = randomUUID();
    await intents.claimDue(reconciler, 60);
    await intents.recordFailure(stalled.id, randomUUID(), 'not mine', 0);
    await intents.recordFailure(stalled.id, reconciler, 'billing unreachable', 0);
    expect(await stateOf(stalled.id)).toEqual({ state: 'pending', generation: 0, attempts: 1, lastError: 'billing unreachable' });
    expect((await intents.claimDue(randomUUID(), 60))?.attempts).toBe(1);
  });

  it("undoes an intent and records its item's cancellation in one statement, once", async () => {
    const paid = intent({ leaseSeconds: 0 });
    await intents.open(paid);
    const reconciler = randomUUID();
    await intents.claimDue(reconciler, 60);
    await intents.markUndoneCanceling(paid.id, reconciler, 'si_1');
    await intents.markUndoneCanceling(paid.id, reconciler, 'si_1');
    expect(await stateOf(paid.id)).toMatchObject({ state: 'undone', attempts: 1 });
    const cancellations = (await dataSource.query('SELECT plugin_connection_id AS id, subscription_item_id AS item, headers FROM billing_cancellations WHERE plugin_connection_id = $1', [paid.id])) as object[];
    expect(cancellations).toEqual([{ id: paid.id, item: 'si_1', headers: { 'x-request-id': 'req-1' } }]);
  });
});
