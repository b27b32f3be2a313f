import type { TenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import { OutboundAllowList } from '@platform/http-outbound';
import { NO_IDEMPOTENCY_KEY } from '@platform/idempotency';
import { fake, FakeTenantAccess, RecordingAuditTrail, transactionOn } from '@platform/testing';
import { WebhookSigningSecrets } from '../../src/webhooks/signing-secrets';
import { CreateWebhookEndpointUseCase } from '../../src/webhooks/endpoints/create-webhook-endpoint.use-case';
import type { WebhookEndpointWithSecretDto } from '../../src/webhooks/endpoints/webhook-endpoint.dto';
import type { NewWebhookEndpoint, StoredWebhookEndpoint, WebhookEndpointChanges, WebhookEndpointsRepository } from '../../src/webhooks/endpoints/webhook-endpoints.repository';
import type { WebhookEndpointsSettings } from '../../src/webhooks/endpoints/webhook-endpoints-settings';

export const TENANT_ID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
export const OWNER = { kind: 'operator' as const, operatorID: '9c8b7a6d-5e4f-4321-8abc-def012345678' };

export const SETTINGS: WebhookEndpointsSettings = {
  endpointsPerTenant: 2,
  rotationGraceHours: 24,
  destinations: { allowList: OutboundAllowList.empty, httpsOnly: false },
};

export const signingSecrets = () => new WebhookSigningSecrets({ current: 'unit-test-webhook-secrets-key-0123456789' });

interface Row extends StoredWebhookEndpoint {
  tenantID: string;
  sealedSecret: string;
  previousSealedSecret: string | null;
}

/**
 * The endpoints table in memory, behind the repository's methods: each write
 * checks it runs in the use case's transaction (`runner`) and is kept in
 * `writes`, so a spec asserts what was written, in which tenant.
 */
export class InMemoryWebhookEndpoints {
  readonly runner: SqlRunner = { query: async () => [] };
  readonly rows: Row[] = [];
  readonly writes: { method: string; tenantID: string; webhookEndpointID: string }[] = [];
  private tick = Date.parse('2026-03-02T12:00:00.000Z');

  asRepository(): WebhookEndpointsRepository {
    const inTenant = (scope: TenantScope, id: string) => this.rows.find((row) => row.tenantID === scope.tenantID && row.webhookEndpointID === id);
    const write = (runner: SqlRunner, method: string, scope: TenantScope, webhookEndpointID: string) => {
      if (runner !== this.runner) throw new Error(`${method} outside the use case's transaction`);
      this.writes.push({ method, tenantID: scope.tenantID, webhookEndpointID });
    };
    const shown = (row: Row | undefined): StoredWebhookEndpoint | undefined => {
      if (!row) return undefined;
      const { tenantID: _tenantID, sealedSecret: _sealed, previousSealedSecret: _previous, ...endpoint } = row;
      return { ...endpoint, eventTypes: [...endpoint.eventTypes] };
    };
    return fake<WebhookEndpointsRepository>({
      transaction: transactionOn(this.runner),
      insertWithinLimit: async (runner: SqlRunner, scope: TenantScope, endpoint: NewWebhookEndpoint, limit: number) => {
        write(runner, 'insertWithinLimit', scope, endpoint.id);
        if (this.rows.filter((row) => row.tenantID === scope.tenantID).length >= limit) return undefined;
        const now = this.now();
        const row: Row = {
          tenantID: scope.tenantID,
          webhookEndpointID: endpoint.id,
          url: endpoint.url,
          description: endpoint.description,
          eventTypes: endpoint.eventTypes,
          enabled: endpoint.enabled,
          sealedSecret: endpoint.sealedSecret,
          previousSealedSecret: null,
          disabledAt: null,
          disabledReason: null,
          failingSince: null,
          previousSecretExpiresAt: null,
          createdAt: now,
          updatedAt: now,
        };
        this.rows.push(row);
        return shown(row);
      },
      byID: async (scope: TenantScope, id: string) => shown(inTenant(scope, id)),
      count: async (scope: TenantScope) => this.rows.filter((row) => row.tenantID === scope.tenantID).length,
      page: async (scope: TenantScope, page: { offset: number; limit: number }) =>
        this.rows
          .filter((row) => row.tenantID === scope.tenantID)
          .slice(page.offset, page.offset + page.limit)
          .map((row) => shown(row)!),
      update: async (runner: SqlRunner, scope: TenantScope, id: string, changes: WebhookEndpointChanges) => {
        write(runner, 'update', scope, id);
        const row = inTenant(scope, id);
        if (!row) return undefined;
        if (changes.enabled === true && !row.enabled) Object.assign(row, { disabledAt: null, disabledReason: null, failingSince: null });
        for (const [field, value] of Object.entries(changes)) if (value !== undefined) Object.assign(row, { [field]: value });
        row.updatedAt = this.now();
        return shown(row);
      },
      rotateSecret: async (runner: SqlRunner, scope: TenantScope, id: string, sealedSecret: string, previousExpiresAt: Date | null) => {
        write(runner, 'rotateSecret', scope, id);
        const row = inTenant(scope, id);
        if (!row) return undefined;
        Object.assign(row, {
          previousSealedSecret: previousExpiresAt ? row.sealedSecret : null,
          previousSecretExpiresAt: previousExpiresAt,
          sealedSecret,
          updatedAt: this.now(),
        });
        return shown(row);
      },
      delete: async (runner: SqlRunner, scope: TenantScope, id: string) => {
        write(runner, 'delete', scope, id);
        const row = inTenant(scope, id);
        if (!row) return undefined;
        this.rows.splice(this.rows.indexOf(row), 1);
        return { url: row.url };
      },
    });
  }

  /** Each write a millisecond after the one before, so created and updated times tell them apart. */
  private now(): Date {
    this.tick += 1;
    return new Date(this.tick);
  }
}

/** Endpoints of TENANT_ID at these URLs, made through the create use case; the table's writes are then forgotten. */
export async function seededEndpoints(table: InMemoryWebhookEndpoints, urls: string[]): Promise<WebhookEndpointWithSecretDto[]> {
  const create = new CreateWebhookEndpointUseCase(new FakeTenantAccess().asAccess(), table.asRepository(), signingSecrets(), new RecordingAuditTrail().asTrail(), {
    ...SETTINGS,
    endpointsPerTenant: urls.length,
  });
  const created: WebhookEndpointWithSecretDto[] = [];
  for (const url of urls) {
    created.push(await create.execute({ principal: OWNER, tenantID: TENANT_ID, url, eventTypes: ['member.removed'], idempotency: NO_IDEMPOTENCY_KEY }));
  }
  table.writes.length = 0;
  return created;
}
