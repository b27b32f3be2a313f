import { describe, expect, it } from 'vitest';
import { OPERATOR_ID, OTHER_OPERATOR_ID, SESSION_ID, sessionView, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import { memberAccess } from '../../../test/doubles/member-access.fakes';
import { sessionChangesOver } from '../../../test/doubles/session-changes.fakes';
import { JoinSessionUseCase } from './join-session.use-case';
import type { SessionView } from './sessions.repository';

function setUp(before: SessionView) {
  const { access, required } = memberAccess({ owner: true });
  const world = sessionChangesOver(before);
  const useCase = new JoinSessionUseCase(access, world.sessions, world.changes);
  const join = () => useCase.execute({ principal: { kind: 'operator', operatorID: OPERATOR_ID }, tenantID: TENANT_ID, sessionID: SESSION_ID });
  return { join, required, ...world };
}

describe('JoinSessionUseCase', () => {
  it("adds the operator to a session they may see as a participant, with session.participantJoined naming them, in the join's transaction", async () => {
    const { join, written, webhookEvents, appended, required } = setUp(sessionView({ operatorID: OTHER_OPERATOR_ID, sessionState: 'assigned' }));
    expect(await join()).toMatchObject({ operatorID: OTHER_OPERATOR_ID, operatorParticipantsIDs: [OPERATOR_ID] });
    expect(written).toEqual([`join ${OPERATOR_ID}`, 'commit']);
    expect(appended()).toEqual(['session.participantJoined']);
    expect(webhookEvents.events[0].event.data).toMatchObject({ participantID: OPERATOR_ID, participantIDs: [OPERATOR_ID] });
    // Any member may join: no owner-only requirement, and an unknown tenant is a 404.
    expect(required).toEqual([{ tenantNotFoundIs404: true }]);
  });

  it('lets an operator join a listed session nobody is assigned yet (queued)', async () => {
    const { join, written } = setUp(sessionView());
    expect(await join()).toMatchObject({ operatorParticipantsIDs: [OPERATOR_ID] });
    expect(written).toEqual([`join ${OPERATOR_ID}`, 'commit']);
  });

  it('refuses, writing and appending nothing: its assignee or a participant already (409 1945), a closed session (409 1942), one the operator may not see (404 1060)', async () => {
    const cases = [
      [sessionView({ operatorID: OPERATOR_ID, sessionState: 'assigned' }), 'AlreadyInSession'],
      [sessionView({ operatorID: OTHER_OPERATOR_ID, operatorParticipantsIDs: [OPERATOR_ID], sessionListed: false, sessionState: 'assigned' }), 'AlreadyInSession'],
      [sessionView({ operatorID: OTHER_OPERATOR_ID, sessionState: 'closed', closedAt: '2026-11-28T13:00:00.000Z' }), 'SessionClosed'],
      [sessionView({ operatorID: OTHER_OPERATOR_ID, sessionListed: false, sessionState: 'assigned' }), 'SessionNotFound'],
    ] as const;
    for (const [before, key] of cases) {
      const { join, written, appended } = setUp(before);
      await expect(join(), key).rejects.toMatchObject({ key });
      expect(written).toEqual([]);
      expect(appended()).toEqual([]);
    }
  });
});
