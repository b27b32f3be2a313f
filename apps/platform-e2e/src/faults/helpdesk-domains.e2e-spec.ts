import { singleError } from '@platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppReplica } from './harness/app-replica';
import { FaultPlatform, PluginsHelpdeskBalancer, startFaultPlatform } from './harness/fault-platform';
import { statusAndBody } from './harness/typed-answer';
import { HelpdeskTenant, helpdeskTenant } from './helpdesk-tenant';

const PROVIDER_FAILED = { statusCode: 502, error: 'DomainProvisioningError', error_code: 1122 };

/**
 * Operations 12 and 13 while the custom-hostname provider fails or is slow,
 * through two plugins-helpdesk replicas running as separate processes.
 */
describe('helpdesk domains when the custom-hostname provider fails (two replicas)', () => {
  let platform: FaultPlatform;
  let helpdesk: HelpdeskTenant;
  let balancer: PluginsHelpdeskBalancer;
  let replica1: AppReplica;
  let replica2: AppReplica;

  const refreshOn = (replica: AppReplica, hostname: string) => helpdesk.refresh(platform.replica('plugins-helpdesk', replica.url), hostname);
  const removeOn = (replica: AppReplica, hostname: string) => helpdesk.remove(platform.replica('plugins-helpdesk', replica.url), hostname);
  const storedRow = async (hostname: string) =>
    (await platform.dataSource.query('SELECT provider_id, status, last_checked_at, verified_at FROM helpdesk_domains WHERE hostname = $1', [hostname]))[0];

  beforeAll(async () => {
    platform = await startFaultPlatform({ replicas: { 'plugins-helpdesk': 2 } });
    [replica1, replica2] = platform.replicas['plugins-helpdesk'];
    balancer = platform.balancer('plugins-helpdesk');
    helpdesk = await helpdeskTenant(platform);
  });
  afterAll(() => platform?.close());
  beforeEach(() => platform.stubs.customHostnames.recover());

  it.each([
    ['failing (HTTP 500)', 'server-error'],
    ['too slow (no answer within CLOUDFLARE_TIMEOUT_MS)', 'hang'],
  ] as const)('answers 502 1122 to refresh and remove on both replicas while the provider is %s, changes nothing, and works again once it recovers', async (_, mode) => {
    const refreshed = await helpdesk.addDomain(balancer.api);
    const removed = await helpdesk.addDomain(balancer.api);
    const untouched = await helpdesk.addDomain(balancer.api);
    const before = { refreshed: await storedRow(refreshed), removed: await storedRow(removed) };

    platform.stubs.customHostnames.goDown(mode);
    const failedRefresh = await refreshOn(replica1, refreshed);
    expect(failedRefresh.response.status).toBe(502);
    expect(singleError(failedRefresh.error)).toMatchObject(PROVIDER_FAILED);
    for (const replica of [replica1, replica2]) {
      const failedRemove = await removeOn(replica, removed);
      expect(failedRemove.response.status).toBe(502);
      expect(singleError(failedRemove.error)).toMatchObject(PROVIDER_FAILED);
    }
    // The failed check used the domain's slot, on every replica (docs/helpdesk-domains.md).
    const throttled = await refreshOn(replica2, refreshed);
    expect(throttled.response.status).toBe(429);
    expect(singleError(throttled.error).error_code).toBe(1121);
    expect(await storedRow(refreshed)).toEqual(before.refreshed);
    expect(await storedRow(removed)).toEqual(before.removed);
    expect(platform.stubs.customHostnames.find(removed)).toBeDefined();

    // The provider recovers: both replicas serve again, no restart.
    platform.stubs.customHostnames.recover();
    const refreshedAfter = await refreshOn(replica2, untouched);
    expect(refreshedAfter.response.status).toBe(200);
    expect(refreshedAfter.data?.domain).toMatchObject({ domainHostname: untouched, domainStatus: 'pending' });
    const removedAfter = await removeOn(replica1, removed);
    expect(statusAndBody(removedAfter)).toMatchObject({ status: 200, body: { deleted: true, domainHostname: removed } });
    expect(await storedRow(removed)).toBeUndefined();
    expect(platform.stubs.customHostnames.find(removed)).toBeUndefined();
  });
});
