import { singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';
import { describeStandardRefusals } from '../support/standard-refusals';

describe('tenants (core-tenants)', () => {
  let platform: TestPlatform;
  let tenantID: string;
  let otherTenantID: string;
  let ownerToken: string;
  let memberToken: string;
  let outsiderToken: string;

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants'] });
    const { fixtures } = platform;
    tenantID = await fixtures.tenant('Zeta Atendimento');
    otherTenantID = await fixtures.tenant('Alpha Suporte');
    const owner = await fixtures.operator();
    const member = await fixtures.operator();
    const outsider = await fixtures.operator();
    await fixtures.membership(tenantID, owner.operatorID, 'owner');
    await fixtures.membership(otherTenantID, owner.operatorID, 'member');
    await fixtures.membership(tenantID, member.operatorID, 'member');
    await fixtures.membership(otherTenantID, outsider.operatorID, 'owner');
    ownerToken = await platform.tokenFor(owner.operatorID);
    memberToken = await platform.tokenFor(member.operatorID);
    outsiderToken = await platform.tokenFor(outsider.operatorID);
  });
  afterAll(() => platform.close());

  const headersOf = (authorization?: string) => (authorization === undefined ? {} : { authorization });
  const listTenants = (authorization?: string) => platform.api.core.GET('/tenants', { headers: headersOf(authorization) });
  const readTenant = (id: string, authorization?: string) =>
    platform.api.core.GET('/v1/tenants/{tenantID}', { params: { path: { tenantID: id } }, headers: headersOf(authorization) });

  describe('GET /tenants (operation 15)', () => {
    it('lists the tenants of the token, by name, with the role in each', async () => {
      const answer = await listTenants(`Bearer ${ownerToken}`);
      expect(answer.response.status).toBe(200);
      expect(answer.data).toEqual({
        data: [
          { tenantID: otherTenantID, tenantName: 'Alpha Suporte', role: 'member' },
          { tenantID, tenantName: 'Zeta Atendimento', role: 'owner' },
        ],
      });
    });

    it('lists only the tenants the operator belongs to', async () => {
      const answer = await listTenants(`Bearer ${outsiderToken}`);
      expect(answer.data).toEqual({ data: [{ tenantID: otherTenantID, tenantName: 'Alpha Suporte', role: 'owner' }] });
    });

    it('answers an empty list to an operator without tenants', async () => {
      const loner = await platform.fixtures.operator();
      const answer = await listTenants(`Bearer ${await platform.tokenFor(loner.operatorID)}`);
      expect({ status: answer.response.status, body: answer.data }).toMatchObject({ status: 200, body: { data: [] } });
    });

    it('refuses plugin credentials: the operation takes the operator token only', async () => {
      const plugin = await platform.fixtures.plugin();
      const answer = await listTenants(plugin.authorization);
      expect(answer.response.status).toBe(401);
      expect(singleError(answer.error).error_code).toBe(1003);
    });
  });

  describe('GET /v1/tenants/:tenantID (check order and access)', () => {
    it('shows the tenant to a member', async () => {
      const answer = await readTenant(tenantID, `Bearer ${memberToken}`);
      expect(answer.response.status).toBe(200);
      expect(answer.data!.data).toMatchObject({ tenantID, tenantName: 'Zeta Atendimento' });
      expect(new Date(answer.data!.data.createdAt).toISOString()).toBe(answer.data!.data.createdAt);
    });

    it('accepts an upper-case tenantID as the same tenant', async () => {
      const answer = await readTenant(tenantID.toUpperCase(), `Bearer ${memberToken}`);
      expect(answer.response.status).toBe(200);
    });

    describeStandardRefusals({
      method: 'GET',
      path: '/v1/tenants/{tenantID}',
      client: () => platform.api.core,
      tenantID: () => tenantID,
      valid: () => `Bearer ${memberToken}`,
      outsider: () => `Bearer ${outsiderToken}`,
    });

    it('lets a plugin installed on the tenant read it, and refuses one that is not', async () => {
      const installed = await platform.fixtures.plugin();
      await platform.fixtures.connection(tenantID, installed.pluginID);
      const notInstalled = await platform.fixtures.plugin();
      await platform.fixtures.connection(otherTenantID, notInstalled.pluginID);

      const allowed = await readTenant(tenantID, installed.authorization);
      expect(allowed.response.status).toBe(200);
      const refused = await readTenant(tenantID, notInstalled.authorization);
      expect(refused.response.status).toBe(403);
      expect(singleError(refused.error).error_code).toBe(1004);
    });

    it('lets a connection read its own tenant, and refuses a connection of another tenant', async () => {
      const plugin = await platform.fixtures.plugin();
      const own = await platform.fixtures.connection(tenantID, plugin.pluginID);
      const foreign = await platform.fixtures.connection(otherTenantID, plugin.pluginID);

      expect((await readTenant(tenantID, own.authorization)).response.status).toBe(200);
      const refused = await readTenant(tenantID, foreign.authorization);
      expect(refused.response.status).toBe(403);
      expect(singleError(refused.error).error_code).toBe(1004);
    });
  });
});
