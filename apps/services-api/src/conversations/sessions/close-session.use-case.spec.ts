import { describe, expect, it } from 'vitest';
import { OPERATOR_ID, OTHER_OPERATOR_ID, SESSION_ID, sessionView, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import { memberAccess } from '../../../test/doubles/member-access.fakes';
import { sessionChangesOver } from '../../../test/doubles/session-changes.fakes';
import { CloseSessionUseCase } from './close-session.use-case';
import { TenantRoles } from './session-access';
import type { SessionView } from './sessions.repository';

function setUp(before: SessionView, options: { owner: boolean }) {
  const { access } = memberAccess(options);
  const world = sessionChangesOver(before);
  const useCase = new CloseSessionUseCase(access, new TenantRoles(access), world.sessions, world.changes);
  const close = () => useCase.execute({ principal: { kind: 'operator', operatorID: OPERATOR_ID }, tenantID: TENANT_ID, sessionID: SESSION_ID });
  return { close, ...world };
}

const assignedTo = (operatorID: string, changes: Parameters<typeof sessionView>[0] = {}) => sessionView({ operatorID, sessionState: 'assigned', ...changes });

describe('CloseSessionUseCase', () => {
  it("closes the assignee's session with session.closed (who closed it, the closed snapshot), enqueues the clearing of its notifications, and nudges the fan-out once committed", async () => {
    const { close, written, webhookEvents, appended } = setUp(assignedTo(OPERATOR_ID), { owner: false });
    expect(await close()).toMatchObject({ sessionID: SESSION_ID, sessionState: 'closed', sessionActive: false });
    expect(written).toEqual(['close', 'enqueue clear', 'commit', 'nudge fan-out']);
    expect(appended()).toEqual(['session.closed']);
    expect(webhookEvents.events[0].event).toEqual({
      type: 'session.closed',
      subject: `session:${SESSION_ID}`,
      data: expect.objectContaining({ closedByOperatorID: OPERATOR_ID, operatorID: OPERATOR_ID, session: expect.objectContaining({ sessionState: 'closed' }) }),
    });
  });

  it("lets an owner close a queued session, another operator's, and one they may not see", async () => {
    for (const before of [sessionView(), assignedTo(OTHER_OPERATOR_ID), assignedTo(OTHER_OPERATOR_ID, { sessionListed: false })]) {
      const { close, written, appended } = setUp(before, { owner: true });
      expect(await close()).toMatchObject({ sessionState: 'closed' });
      expect(written).toEqual(['close', 'enqueue clear', 'commit', 'nudge fan-out']);
      expect(appended()).toEqual(['session.closed']);
    }
  });

  it('refuses, writing and appending nothing: a closed session (409 1942), a member who is not its assignee (403 1004, a queued one too), one the member may not see (404 1060)', async () => {
    const cases = [
      [assignedTo(OPERATOR_ID, { sessionState: 'closed', closedAt: '2026-11-28T13:00:00.000Z' }), false, 'SessionClosed'],
      [assignedTo(OTHER_OPERATOR_ID, { sessionState: 'closed', closedAt: '2026-11-28T13:00:00.000Z' }), true, 'SessionClosed'],
      [assignedTo(OTHER_OPERATOR_ID), false, 'Forbidden'],
      [sessionView(), false, 'Forbidden'],
      [assignedTo(OTHER_OPERATOR_ID, { sessionListed: false }), false, 'SessionNotFound'],
    ] as const;
    for (const [before, owner, key] of cases) {
      const { close, written, appended } = setUp(before, { owner });
      await expect(close(), `${key} (owner: ${owner})`).rejects.toMatchObject({ key });
      expect(written).toEqual([]);
      expect(appended()).toEqual([]);
    }
  });

  it('refuses a session the tenant does not have with 404 1060, an owner too', async () => {
    for (const owner of [false, true]) {
      const { close, sessions, written } = setUp(sessionView(), { owner });
      sessions.lockedView = async () => undefined;
      await expect(close()).rejects.toMatchObject({ key: 'SessionNotFound' });
      expect(written).toEqual([]);
    }
  });
});
