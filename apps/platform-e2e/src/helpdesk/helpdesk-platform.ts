import { Clock } from '@platform/scheduling';
import { CustomHostnamesStub, PluginConnectionFixture, PluginFixture } from '@platform/testing';
import { vi } from 'vitest';
import { AppName, startPlatform, TestPlatform } from '../support/platform';

export const HELPDESK_URN = 'urn:plugin:helpdesk';
export const CNAME_TARGET = 'clientes.central-ajuda.com.br';
const API_TOKEN = 'test-cloudflare-token';
const ZONE_ID = '023e105f4ecef8ad9ca31a8372d0c353';

/** plugins-helpdesk against the custom-hostnames stub, with a connected tenant and one of each caller. */
export interface HelpdeskPlatform {
  platform: TestPlatform;
  stub: CustomHostnamesStub;
  helpdeskPlugin: PluginFixture;
  /** Connected to the helpdesk plugin. */
  tenantID: string;
  /** The helpdesk plugin's connection on tenantID. */
  connection: PluginConnectionFixture;
  /** The tenant's owner, whose bearer header is `owner`. */
  ownerID: string;
  /** Bearer headers. */
  owner: string;
  member: string;
  outsider: string;
  /** Sets the clock of every app instance given (the first replica by default). */
  setNow(at: Date, clocks?: Clock[]): void;
  close(): Promise<void>;
}

/** `alongside`: other apps to start with plugins-helpdesk (services-api, to read the tenant's audit log). */
export async function startHelpdeskPlatform(env: Record<string, string> = {}, alongside: AppName[] = []): Promise<HelpdeskPlatform> {
  const stub = await CustomHostnamesStub.start({ apiToken: API_TOKEN, zoneID: ZONE_ID });
  const platform = await startPlatform({
    apps: ['plugins-helpdesk', ...alongside],
    env: {
      HELPDESK_PLUGIN_URN: HELPDESK_URN,
      HELPDESK_CNAME_TARGET: CNAME_TARGET,
      CLOUDFLARE_BASE_URL: stub.baseUrl,
      CLOUDFLARE_API_TOKEN: API_TOKEN,
      CLOUDFLARE_ZONE_ID: ZONE_ID,
      // Long enough that a busy machine never times out a provider that answers; hang tests wait it out.
      CLOUDFLARE_TIMEOUT_MS: '5000',
      CLOUDFLARE_MAX_RETRIES: '0',
      ...env,
    },
  });
  const { fixtures } = platform;
  const helpdeskPlugin = await fixtures.plugin({ name: 'Central de ajuda', urn: HELPDESK_URN });
  const tenantID = await fixtures.tenant('Acme Atendimento');
  const otherTenantID = await fixtures.tenant('Globex Suporte');
  const connection = await fixtures.connection(tenantID, helpdeskPlugin.pluginID);
  const [owner, member, outsider] = [await fixtures.operator(), await fixtures.operator(), await fixtures.operator()];
  await fixtures.membership(tenantID, owner.operatorID, 'owner');
  await fixtures.membership(tenantID, member.operatorID, 'member');
  await fixtures.membership(otherTenantID, outsider.operatorID, 'owner');
  const bearer = async (operatorID: string) => `Bearer ${await platform.tokenFor(operatorID)}`;
  const clock = platform.apps['plugins-helpdesk']!.get(Clock);

  return {
    platform,
    stub,
    helpdeskPlugin,
    tenantID,
    connection,
    ownerID: owner.operatorID,
    owner: await bearer(owner.operatorID),
    member: await bearer(member.operatorID),
    outsider: await bearer(outsider.operatorID),
    setNow(at, clocks = [clock]) {
      for (const each of clocks) vi.spyOn(each, 'now').mockImplementation(() => new Date(at));
    },
    async close() {
      vi.restoreAllMocks();
      await platform.close();
      await stub.close();
    },
  };
}
