import { TenantScope, trustedTenantScope } from '@platform/auth';
import { AppException } from '@platform/errors';
import { fake, FakeTenantAccess } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { GetNotificationPreferencesUseCase } from './get-notification-preferences.use-case';
import type { NotificationPreferencesDto } from './notification-preferences.dto';
import type { NotificationPreferencesRepository } from './notification-preferences.repository';
import { SetNotificationPreferencesUseCase } from './set-notification-preferences.use-case';

const TENANT_ID = '0b8c7f6e-5d4c-4b3a-9f8e-7d6c5b4a3f2e';
const principal = { kind: 'operator' as const, operatorID: 'operator-1' };
const CHOICE: NotificationPreferencesDto = { email: { assigned: false, contactWrote: true } };

function setUp() {
  const access = new FakeTenantAccess();
  const calls: string[] = [];
  const describeScope = (scope: TenantScope) => (scope.tenantID === trustedTenantScope(TENANT_ID).tenantID ? 'tenant' : 'another tenant');
  const preferences = fake<NotificationPreferencesRepository>({
    read: async (scope: TenantScope, operatorID: string) => {
      calls.push(`read ${operatorID} in ${describeScope(scope)}`);
      return { email: { assigned: true, contactWrote: true } };
    },
    write: async (scope: TenantScope, operatorID: string, choice: NotificationPreferencesDto) => {
      calls.push(`write ${operatorID} in ${describeScope(scope)}`);
      return choice;
    },
  });
  return {
    access,
    calls,
    get: new GetNotificationPreferencesUseCase(access.asAccess(), preferences),
    set: new SetNotificationPreferencesUseCase(access.asAccess(), preferences),
  };
}

describe('notification preferences use cases', () => {
  it("read and write the caller's own preferences in the tenant the access check granted, 404 for an unknown tenant", async () => {
    const { access, calls, get, set } = setUp();
    expect(await get.execute({ principal, tenantID: TENANT_ID })).toEqual({ email: { assigned: true, contactWrote: true } });
    expect(await set.execute({ principal, tenantID: TENANT_ID, preferences: CHOICE })).toEqual(CHOICE);
    expect(calls).toEqual(['read operator-1 in tenant', 'write operator-1 in tenant']);
    expect(access.checks).toEqual([
      { tenantID: TENANT_ID, requirement: { tenantNotFoundIs404: true } },
      { tenantID: TENANT_ID, requirement: { tenantNotFoundIs404: true } },
    ]);
  });

  it('a caller the access check refuses reads and writes nothing', async () => {
    const { access, calls, get, set } = setUp();
    access.refusal = 'Forbidden';
    await expect(get.execute({ principal, tenantID: TENANT_ID })).rejects.toBeInstanceOf(AppException);
    await expect(set.execute({ principal, tenantID: TENANT_ID, preferences: CHOICE })).rejects.toBeInstanceOf(AppException);
    expect(calls).toEqual([]);
  });
});
