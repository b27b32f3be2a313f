import { request, singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';

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

  describe('GET /tenants (operation 15)', () => {
    it('lists the tenants of the token, by name, with the role in each', async () => {
      const response = await request(platform.coreUrl, '/tenants', { headers: { authorization: `Bearer ${ownerToken}` } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        data: [
          { tenantID: otherTenantID, tenantName: 'Alpha Suporte', role: 'member' },
          { tenantID, tenantName: 'Zeta Atendimento', role: 'owner' },
        ],
      });
    });

    it('lists only the tenants the operator belongs to', async () => {
      const response = await request(platform.coreUrl, '/tenants', { headers: { authorization: `Bearer ${outsiderToken}` } });
      expect(response.body).toEqual({ data: [{ tenantID: otherTenantID, tenantName: 'Alpha Suporte', role: 'owner' }] });
    });

    it('answers an empty list to an operator without tenants', async () => {
      const loner = await platform.fixtures.operator();
      const response = await request(platform.coreUrl, '/tenants', { headers: { authorization: `Bearer ${await platform.tokenFor(loner.operatorID)}` } });
      expect(response).toMatchObject({ status: 200, body: { data: [] } });
    });

    it('refuses plugin credentials: the operation takes the operator token only', async () => {
      const plugin = await platform.fixtures.plugin();
      const response = await request(platform.coreUrl, '/tenants', { headers: { authorization: plugin.authorization } });
      expect(response.status).toBe(401);
      expect(singleError(response.body).error_code).toBe(1003);
    });
  });

  describe('GET /v1/tenants/:tenantID (check order and access)', () => {
    it('shows the tenant to a member', async () => {
      const response = await request(platform.coreUrl, `/v1/tenants/${tenantID}`, { headers: { authorization: `Bearer ${memberToken}` } });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ tenantID, tenantName: 'Zeta Atendimento' });
      expect(new Date(response.body.data.createdAt).toISOString()).toBe(response.body.data.createdAt);
    });

    it('accepts an upper-case tenantID as the same tenant', async () => {
      const response = await request(platform.coreUrl, `/v1/tenants/${tenantID.toUpperCase()}`, { headers: { authorization: `Bearer ${memberToken}` } });
      expect(response.status).toBe(200);
    });

    it('is 403 1004 for an operator who is not a member', async () => {
      const response = await request(platform.coreUrl, `/v1/tenants/${tenantID}`, { headers: { authorization: `Bearer ${outsiderToken}` } });
      expect(response.status).toBe(403);
      expect(singleError(response.body)).toEqual({
        statusCode: 403,
        error: 'ForbiddenError',
        error_code: 1004,
        message: 'You do not have access to this resource.',
      });
    });

    it('is 404 1062 for a tenant that does not exist', async () => {
      const response = await request(platform.coreUrl, '/v1/tenants/5f0c8a8e-3a1b-4c2d-9e8f-0a1b2c3d4e5f', {
        headers: { authorization: `Bearer ${memberToken}` },
      });
      expect(response.status).toBe(404);
      expect(singleError(response.body)).toEqual({ statusCode: 404, error: 'TenantNotFoundError', error_code: 1062, message: 'Tenant not found.' });
    });

    it('is 400 1002 naming tenantID for a malformed id', async () => {
      const response = await request(platform.coreUrl, '/v1/tenants/not-a-uuid', { headers: { authorization: `Bearer ${memberToken}` } });
      expect(response.status).toBe(400);
      expect(singleError(response.body)).toEqual({
        statusCode: 400,
        error: 'RequestValidationError',
        error_code: 1002,
        message: 'Invalid request data.',
        fields: [{ field: 'tenantID', received: 'not-a-uuid', allowed: 'uuid' }],
      });
    });

    it('is 400 1001 for an empty tenantID, before credentials are checked', async () => {
      const response = await request(platform.coreUrl, '/v1/tenants/');
      expect(response.status).toBe(400);
      expect(singleError(response.body)).toEqual({ statusCode: 400, error: 'MissingTenantIDError', error_code: 1001, message: 'tenantID is required.' });
    });

    it('checks credentials (401) before validating the id (400 1002)', async () => {
      const response = await request(platform.coreUrl, '/v1/tenants/not-a-uuid');
      expect(response.status).toBe(401);
    });

    it('validates the id (400 1002) before tenant existence and access', async () => {
      const response = await request(platform.coreUrl, '/v1/tenants/not-a-uuid', { headers: { authorization: `Bearer ${outsiderToken}` } });
      expect(singleError(response.body).error_code).toBe(1002);
    });

    it('checks tenant existence (404 1062) before access (403)', async () => {
      const response = await request(platform.coreUrl, '/v1/tenants/00000000-0000-0000-0000-000000000000', {
        headers: { authorization: `Bearer ${outsiderToken}` },
      });
      expect(singleError(response.body).error_code).toBe(1062);
    });

    it('lets a plugin installed on the tenant read it, and refuses one that is not', async () => {
      const installed = await platform.fixtures.plugin();
      await platform.fixtures.connection(tenantID, installed.pluginID);
      const notInstalled = await platform.fixtures.plugin();
      await platform.fixtures.connection(otherTenantID, notInstalled.pluginID);

      const allowed = await request(platform.coreUrl, `/v1/tenants/${tenantID}`, { headers: { authorization: installed.authorization } });
      expect(allowed.status).toBe(200);
      const refused = await request(platform.coreUrl, `/v1/tenants/${tenantID}`, { headers: { authorization: notInstalled.authorization } });
      expect(refused.status).toBe(403);
      expect(singleError(refused.body).error_code).toBe(1004);
    });

    it('lets a connection read its own tenant, and refuses a connection of another tenant', async () => {
      const plugin = await platform.fixtures.plugin();
      const own = await platform.fixtures.connection(tenantID, plugin.pluginID);
      const foreign = await platform.fixtures.connection(otherTenantID, plugin.pluginID);

      expect((await request(platform.coreUrl, `/v1/tenants/${tenantID}`, { headers: { authorization: own.authorization } })).status).toBe(200);
      const refused = await request(platform.coreUrl, `/v1/tenants/${tenantID}`, { headers: { authorization: foreign.authorization } });
      expect(refused.status).toBe(403);
      expect(singleError(refused.body).error_code).toBe(1004);
    });
  });
});
