import { AppException } from '@platform/errors';
import { fake } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { INBOX_ID, OPERATOR_ID, OTHER_OPERATOR_ID, SESSION_ID, sessionView, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import { memberAccess } from '../../../test/doubles/member-access.fakes';
import { sessionChangesOver } from '../../../test/doubles/session-changes.fakes';
import type { Admission, OperatorCapacity } from '../routing/operator-capacity';
import { TenantRoles } from './session-access';
import type { SessionView } from './sessions.repository';
import { TransferSessionUseCase } from './transfer-session.use-case';

const THIRD_OPERATOR_ID = '4d5e6f70-8192-4a3b-9c4d-5e6f708192a3';
const OUTSIDER_ID = '6f708192-a3b4-4c5d-8e6f-708192a3b4c5';

function setUp(before: SessionView, options: { owner?: boolean; atCapacity?: boolean } = {}) {
  const { access } = memberAccess({ owner: options.owner ?? false, outsiders: [OUTSIDER_ID] });
  const world = sessionChangesOver(before);
  const admitted: Admission[] = [];
  const capacity = fake<OperatorCapacity>({
    admit: async (_runner: unknown, admission: Admission) => {
      if (options.atCapacity && !admission.override) throw new AppException('OperatorAtCapacity');
      admitted.push(admission);
    },
  });
  const useCase = new TransferSessionUseCase(access, new TenantRoles(access), world.sessions, world.changes, capacity);
  const transfer = (operatorID: string, override = false) =>
    useCase.execute({ principal: { kind: 'operator', operatorID: OPERATOR_ID }, tenantID: TENANT_ID, sessionID: SESSION_ID, operatorID, override });
  return { transfer, admitted, ...world };
}

const assignedTo = (operatorID: string, changes: Parameters<typeof sessionView>[0] = {}) => sessionView({ operatorID, sessionState: 'assigned', ...changes });

describe('TransferSessionUseCase', () => {
  it('lets the assignee hand the session to another member, who is notified; the assignee stays a participant, and the others\' notifications are cleared once it committed', async () => {
    const { transfer, written, appended, webhookEvents, admitted } = setUp(assignedTo(OPERATOR_ID));
    expect(await transfer(OTHER_OPERATOR_ID)).toMatchObject({ operatorID: OTHER_OPERATOR_ID, operatorParticipantsIDs: [OPERATOR_ID], sessionState: 'assigned' });
    expect(written).toEqual([
      `transfer ${OTHER_OPERATOR_ID}`,
      `assignment ${OTHER_OPERATOR_ID}`,
      `counts ${OTHER_OPERATOR_ID}`,
      `mail assigned ${OTHER_OPERATOR_ID}`,
      'enqueue clear',
      'routing request',
      'commit',
      'nudge fan-out',
    ]);
    expect(appended()).toEqual(['session.transferred']);
    expect(webhookEvents.events[0].event.data).toMatchObject({ operatorID: OTHER_OPERATOR_ID, previousOperatorID: OPERATOR_ID, transferredByOperatorID: OPERATOR_ID });
    expect(admitted).toEqual([{ tenantID: TENANT_ID, inboxID: INBOX_ID, operatorID: OTHER_OPERATOR_ID, override: false }]);
  });

  it("lets an owner hand on another operator's session, even one not listed, and take it themself without notifying themself", async () => {
    const unlisted = assignedTo(OTHER_OPERATOR_ID, { sessionListed: false });
    const toAnother = setUp(unlisted, { owner: true });
    expect(await toAnother.transfer(THIRD_OPERATOR_ID)).toMatchObject({ operatorID: THIRD_OPERATOR_ID, operatorParticipantsIDs: [OTHER_OPERATOR_ID] });
    expect(toAnother.webhookEvents.events[0].event.data).toMatchObject({ previousOperatorID: OTHER_OPERATOR_ID, transferredByOperatorID: OPERATOR_ID });

    const toThemself = setUp(unlisted, { owner: true });
    expect(await toThemself.transfer(OPERATOR_ID)).toMatchObject({ operatorID: OPERATOR_ID });
    expect(toThemself.written).toEqual([`transfer ${OPERATOR_ID}`, 'enqueue clear', 'routing request', 'commit', 'nudge fan-out']);
  });

  it("lets only an owner go past the inbox's capacity: a member's override is 403 1004, and a member at capacity is 409 1949", async () => {
    const owner = setUp(assignedTo(OPERATOR_ID), { owner: true, atCapacity: true });
    await expect(owner.transfer(OTHER_OPERATOR_ID)).rejects.toMatchObject({ key: 'OperatorAtCapacity' });
    expect(owner.written).toEqual([]);
    expect(await owner.transfer(OTHER_OPERATOR_ID, true)).toMatchObject({ operatorID: OTHER_OPERATOR_ID });
    expect(owner.admitted).toEqual([expect.objectContaining({ operatorID: OTHER_OPERATOR_ID, override: true })]);

    const member = setUp(assignedTo(OPERATOR_ID));
    await expect(member.transfer(OTHER_OPERATOR_ID, true)).rejects.toMatchObject({ key: 'Forbidden' });
    expect(member.written).toEqual([]);
    expect(member.appended()).toEqual([]);
  });

  it('refuses, writing and appending nothing: a queued session (409 1944), its own assignee (409 1945), a member not its assignee (403 1004), a session the member may not see (404 1060), a non-member (404 1990), a closed session (409 1942)', async () => {
    const cases = [
      [sessionView(), OTHER_OPERATOR_ID, 'SessionNotAssigned'],
      [assignedTo(OPERATOR_ID), OPERATOR_ID, 'AlreadyInSession'],
      [assignedTo(OTHER_OPERATOR_ID), THIRD_OPERATOR_ID, 'Forbidden'],
      [assignedTo(OTHER_OPERATOR_ID, { sessionListed: false }), THIRD_OPERATOR_ID, 'SessionNotFound'],
      [assignedTo(OPERATOR_ID), OUTSIDER_ID, 'MemberNotFound'],
      [assignedTo(OPERATOR_ID, { sessionState: 'closed', closedAt: '2026-11-28T13:00:00.000Z' }), OTHER_OPERATOR_ID, 'SessionClosed'],
    ] as const;
    for (const [state, operatorID, key] of cases) {
      const { transfer, written, appended } = setUp(state);
      await expect(transfer(operatorID), key).rejects.toMatchObject({ key });
      expect(written).toEqual([]);
      expect(appended()).toEqual([]);
    }
  });
});
