import { WebhookSigningSecrets } from '@apps/services-api';
import { startPlatform, TestPlatform } from '../support/platform';

/** services-api with a tenant, its owner and member, and the owner of another tenant. */
export interface WebhookPlatform {
  platform: TestPlatform;
  tenantID: string;
  otherTenantID: string;
  owner: Operator;
  member: Operator;
  /** Owner of the other tenant, no member of this one. */
  outsider: Operator;
  /** The app's sealing of signing secrets, to open what the database holds. */
  secrets: WebhookSigningSecrets;
  /** A fresh tenant and its owner. */
  ownedTenant(): Promise<{ tenantID: string; owner: Operator }>;
  close(): Promise<void>;
}

export interface Operator {
  operatorID: string;
  authorization: string;
}

export async function startWebhookPlatform(env: Record<string, string> = {}): Promise<WebhookPlatform> {
  const platform = await startPlatform({ apps: ['services-api'], env });
  const { fixtures } = platform;
  const operator = async (tenantID: string, role: 'owner' | 'member'): Promise<Operator> => {
    const created = await fixtures.operator();
    await fixtures.membership(tenantID, created.operatorID, role);
    return { operatorID: created.operatorID, authorization: `Bearer ${await platform.tokenFor(created.operatorID)}` };
  };
  const tenantID = await fixtures.tenant();
  const otherTenantID = await fixtures.tenant();
  return {
    platform,
    tenantID,
    otherTenantID,
    owner: await operator(tenantID, 'owner'),
    member: await operator(tenantID, 'member'),
    outsider: await operator(otherTenantID, 'owner'),
    secrets: platform.apps['services-api']!.get(WebhookSigningSecrets),
    async ownedTenant() {
      const id = await fixtures.tenant();
      return { tenantID: id, owner: await operator(id, 'owner') };
    },
    close: () => platform.close(),
  };
}

export const ENDPOINTS = '/v1/tenants/{tenantID}/webhooks/endpoints';
export const ENDPOINT = '/v1/tenants/{tenantID}/webhooks/endpoints/{webhookEndpointID}';
export const ROTATIONS = '/v1/tenants/{tenantID}/webhooks/endpoints/{webhookEndpointID}/secret-rotations';

/** A signing secret as shown: `whsec_` and 32 random bytes in base64. */
export const SECRET_FORM = /^whsec_[A-Za-z0-9+/]{43}=$/;
