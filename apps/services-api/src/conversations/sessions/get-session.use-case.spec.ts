import type { OperatorPrincipal, PluginConnectionPrincipal } from '@platform/auth';
import { fake, FakeTenantAccess } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { CONNECTION_ID, OPERATOR_ID, OTHER_OPERATOR_ID, SESSION_ID, sessionView, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import { GetSessionUseCase } from './get-session.use-case';
import type { SessionsRepository, SessionView } from './sessions.repository';

const operator: OperatorPrincipal = { kind: 'operator', operatorID: OPERATOR_ID };
const connection = (pluginConnectionID: string): PluginConnectionPrincipal => ({ kind: 'pluginConnection', pluginID: 'a-plugin', pluginConnectionID, tenantID: TENANT_ID });

function setUp(stored: SessionView | undefined, access = new FakeTenantAccess(), reads: string[] = []) {
  const useCase = new GetSessionUseCase(
    access.asAccess(),
    fake<SessionsRepository>({
      view: async (_scope: unknown, sessionID: string) => {
        reads.push(sessionID);
        return stored;
      },
    }),
  );
  return (principal: OperatorPrincipal | PluginConnectionPrincipal) => useCase.execute({ principal, tenantID: TENANT_ID, sessionID: SESSION_ID });
}

describe('GetSessionUseCase', () => {
  it("shows an operator a listed session, one assigned to them and one they take part in, as it is stored", async () => {
    for (const stored of [
      sessionView(),
      sessionView({ sessionListed: false, operatorID: OPERATOR_ID, sessionState: 'assigned' }),
      sessionView({ sessionListed: false, operatorID: OTHER_OPERATOR_ID, operatorParticipantsIDs: [OPERATOR_ID], sessionState: 'assigned' }),
    ]) {
      expect(await setUp(stored)(operator)).toEqual(stored.session);
    }
  });

  it("shows the inbox's plugin connection its session, unlisted included", async () => {
    const stored = sessionView({ sessionListed: false, operatorID: OTHER_OPERATOR_ID, sessionState: 'assigned' });
    expect(await setUp(stored)(connection(CONNECTION_ID))).toEqual(stored.session);
  });

  it('answers 404 1060, as for a session the tenant does not have, to an operator who may not see it and to another inbox\'s connection', async () => {
    const unlisted = sessionView({ sessionListed: false, operatorID: OTHER_OPERATOR_ID, operatorParticipantsIDs: ['another-operator'], sessionState: 'assigned' });
    await expect(setUp(unlisted)(operator)).rejects.toMatchObject({ key: 'SessionNotFound' });
    await expect(setUp(sessionView())(connection('4f1e2d3c-0b9a-4876-9543-210fedcba987'))).rejects.toMatchObject({ key: 'SessionNotFound' });
    await expect(setUp(undefined)(operator)).rejects.toMatchObject({ key: 'SessionNotFound' });
  });

  it("asks the tenant access first, with an unknown tenant as a 404, and reads nothing when it refuses", async () => {
    const access = new FakeTenantAccess();
    access.refusal = 'TenantNotFound';
    const reads: string[] = [];
    await expect(setUp(sessionView(), access, reads)(operator)).rejects.toMatchObject({ key: 'TenantNotFound' });
    expect(access.checks).toEqual([{ tenantID: TENANT_ID, requirement: { tenantNotFoundIs404: true } }]);
    expect(reads).toEqual([]);
  });
});
