import { createServicesApiApp, ServicesApiConfig } from '@apps/services-api';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@platform/config';
import { createServicesApiClient, ServicesApiClient } from '@platform/api-client';
import { generateTestSigningKey, signOperatorToken, singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';

/** services-api verifying operator tokens the production way: with core-tenants' JWKS. */
describe('operator tokens verified through the JWKS', () => {
  let platform: TestPlatform;
  const extraApps: NestFastifyApplication[] = [];
  let tenantID: string;
  let operatorID: string;

  async function servicesApiWithJwks(jwksUrl: string): Promise<ServicesApiClient> {
    const app = await createServicesApiApp(loadConfig(ServicesApiConfig, { ...platform.env, OPERATOR_JWT_PUBLIC_KEY: '', OPERATOR_JWKS_URL: jwksUrl }));
    extraApps.push(app);
    await app.listen(0, '127.0.0.1');
    return createServicesApiClient((await app.getUrl()).replace('[::1]', '127.0.0.1'));
  }

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants'] });
    tenantID = await platform.fixtures.tenant();
    operatorID = (await platform.fixtures.operator()).operatorID;
    await platform.fixtures.membership(tenantID, operatorID, 'member');
  });
  afterAll(async () => {
    for (const app of extraApps) await app.close();
    await platform.close();
  });

  it('accepts a token core-tenants signed, and refuses one signed by another key', async () => {
    const services = await servicesApiWithJwks(`${platform.coreUrl}/.well-known/jwks.json`);
    const notifications = (token: string) =>
      services.GET('/v1/tenants/{tenantID}/notifications', { params: { path: { tenantID } }, headers: { authorization: `Bearer ${token}` } });
    const valid = await notifications(await platform.tokenFor(operatorID));
    expect(valid.response.status).toBe(200);
    const foreign = await signOperatorToken(generateTestSigningKey().privateKey, operatorID);
    const refused = await notifications(foreign);
    expect(refused.response.status).toBe(401);
    expect(singleError(refused.error).error_code).toBe(1003);
  });

  it('answers 503 5903, not 401, when the JWKS cannot be fetched', async () => {
    const services = await servicesApiWithJwks('http://127.0.0.1:9/.well-known/jwks.json');
    const { response, error } = await services.GET('/v1/tenants/{tenantID}/notifications', {
      params: { path: { tenantID } },
      headers: { authorization: `Bearer ${await platform.tokenFor(operatorID)}` },
    });
    expect(response.status).toBe(503);
    expect(singleError(error)).toEqual({
      statusCode: 503,
      error: 'InternalServiceUnavailableError',
      error_code: 5903,
      message: 'An internal service is unavailable. Try again.',
    });
  });
});
