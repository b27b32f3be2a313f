import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshAddress, SignUpPlatform, startSignUpPlatform } from '../sign-up/sign-up-support';
import { expectReplayOf, postJson } from './idempotency-support';

/** Idempotency-Key on operator invitations (docs/idempotency.md). */
describe('Idempotency-Key (operator invitations)', () => {
  let env: SignUpPlatform;
  let tenantID: string;
  let owner: string;

  beforeAll(async () => {
    env = await startSignUpPlatform();
    tenantID = await env.platform.fixtures.tenant('Acme Atendimento');
    const { operatorID } = await env.platform.fixtures.operator({ firstname: 'Olivia' });
    await env.platform.fixtures.membership(tenantID, operatorID, 'owner');
    owner = `Bearer ${await env.platform.tokenFor(operatorID)}`;
  });
  afterAll(() => env.close());

  const invite = (key: string | undefined, operatorEmail: string) =>
    postJson(`${env.platform.servicesUrl}/v1/tenants/${tenantID}/operators/invitations`, owner, key, { operatorEmail });
  const invitationsTo = async (address: string) =>
    ((await env.platform.dataSource.query('SELECT id FROM operator_invitations WHERE email = $1', [address])) as unknown[]).length;

  it('invites once for a retried invitation; the retry gets the first answer, marked as a replay', async () => {
    const address = freshAddress();
    const key = randomUUID();
    const first = await invite(key, address);
    expect(first.status).toBe(201);
    expectReplayOf(first, await invite(key, address));
    expect(await invitationsTo(address)).toBe(1);
    await env.smtp.nextMailTo(address);
  });

  it('refuses the key for another address: 422 1980', async () => {
    const key = randomUUID();
    expect((await invite(key, freshAddress())).status).toBe(201);
    const other = freshAddress();
    const reused = await invite(key, other);
    expect(reused.status).toBe(422);
    expect(reused.json.errors[0].error_code).toBe(1980);
    expect(await invitationsTo(other)).toBe(0);
  });
});
