import { CreateInvitationUseCase, RegisterOperatorUseCase } from '@apps/core-tenants';
import { PG_BOSS } from '@apps/services-api';
import { singleError } from '@platform/testing';
import type { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sentAsIs } from '../support/sent-as-is';
import { codeOf, freshAddress, mailJobStates, requestCode, signUp, SignUpPlatform, startSignUpPlatform } from './sign-up-support';

const PASSWORD = 'a long enough secret';

/**
 * Lets core-tenants finish its work but holds its reply until released, so
 * services-api gives up first: the write happened, its answer was lost.
 */
function holdReply<Command, Reply>(useCase: { execute(command: Command): Promise<Reply> }) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let written!: () => void;
  const finished = new Promise<void>((resolve) => (written = resolve));
  const execute = useCase.execute.bind(useCase);
  vi.spyOn(useCase, 'execute').mockImplementationOnce(async (command: Command) => {
    const reply = await execute(command);
    written();
    await released;
    return reply;
  });
  return { release, finished };
}

describe('sign-up and invitations when core-tenants answers too late, or the mail queue fails midway', () => {
  let env: SignUpPlatform;
  let tenantID: string;
  let ownerToken: string;

  const invite = (operatorEmail: string) =>
    env.platform.api.services.POST('/v1/tenants/{tenantID}/operators/invitations', {
      params: { path: { tenantID } },
      ...sentAsIs({ operatorEmail }),
      headers: { authorization: `Bearer ${ownerToken}` },
    });
  const invitationsTo = async (address: string): Promise<{ accepted_at: Date | null }[]> =>
    env.platform.dataSource.query('SELECT accepted_at FROM operator_invitations WHERE email = $1', [address]);

  beforeAll(async () => {
    // A reply held back is lost once services-api's time limit passes: three seconds rather than the suite's ten
    // gets the same outcome sooner, and still leaves a busy machine room for the replies that are not held. The
    // providers' limits (no provider is called here) come down with it, as core-tenants' boot check requires.
    env = await startSignUpPlatform({ CORE_TENANTS_RPC_TIMEOUT_MS: '3000', BILLING_TIMEOUT_MS: '1500', VM_PROVIDER_TIMEOUT_MS: '1500', INSTALL_DATABASE_BUDGET_MS: '1000' });
    tenantID = await env.platform.fixtures.tenant('Acme Atendimento');
    const owner = await env.platform.fixtures.operator();
    await env.platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    ownerToken = await env.platform.tokenFor(owner.operatorID);
  });
  afterAll(() => env.close());

  it('an invitation recorded whose answer is lost: 503 5016 and no mail queued, so its token exists nowhere', async () => {
    const hold = holdReply(env.platform.apps['core-tenants']!.get(CreateInvitationUseCase));
    const address = freshAddress();
    const response = await invite(address);
    hold.release();
    expect(response.response.status).toBe(503);
    expect(singleError(response.error).error_code).toBe(5016);
    await hold.finished;
    expect(await invitationsTo(address)).toEqual([{ accepted_at: null }]);
    expect(await mailJobStates(env.platform, address)).toEqual([]);
  });

  it('a sign-up whose registration answer is lost: 503 5903; the account exists and the code is used, as when PostgreSQL failed after the commit', async () => {
    const address = freshAddress();
    await requestCode(env.platform, { operatorEmail: address, operatorFirstname: 'Rui' });
    const code = codeOf(await env.smtp.nextMailTo(address));
    const hold = holdReply(env.platform.apps['core-tenants']!.get(RegisterOperatorUseCase));
    const body = { operatorEmail: address, operatorFirstname: 'Rui', password: PASSWORD, emailVerificationCode: code };
    const response = await signUp(env.platform, body);
    hold.release();
    expect(response.response.status).toBe(503);
    expect(singleError(response.error).error_code).toBe(5903);
    await hold.finished;
    const signIn = await env.platform.api.core.POST('/v1/operators/sign-in', { body: { operatorEmail: address, password: PASSWORD } });
    expect(signIn.response.status).toBe(200);
    expect((await signUp(env.platform, body)).response.status).toBe(400);
  });

  // Last: it stops services-api's job queue for good.
  it('an invitation whose mail cannot be queued is withdrawn: 503 5016, nothing left', async () => {
    await env.platform.apps['services-api']!.get<symbol, PgBoss>(PG_BOSS).stop({ graceful: false });
    const address = freshAddress();
    const response = await invite(address);
    expect(response.response.status).toBe(503);
    expect(singleError(response.error).error_code).toBe(5016);
    expect(await invitationsTo(address)).toEqual([]);
  });
});
