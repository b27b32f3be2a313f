import { describe, expect, it } from 'vitest';
import { deliveryStatusMove, messageStatusCodeOf } from './message-status';
import { sessionStateOf } from './session-state';
import { operatorMaySeeSession } from './session-visibility';

const me = '9c8b7a6d-5e4f-4321-8abc-def012345678';
const other = '1b2c3d4e-5f60-4718-8a9b-0c1d2e3f4a5b';

describe('operatorMaySeeSession', () => {
  it('shows a listed session to every operator, and an unlisted one to its assignee and participants only', () => {
    expect(operatorMaySeeSession(me, { listed: true, operatorID: other, participantIDs: [] })).toBe(true);
    expect(operatorMaySeeSession(me, { listed: false, operatorID: me, participantIDs: [] })).toBe(true);
    expect(operatorMaySeeSession(me, { listed: false, operatorID: other, participantIDs: [me] })).toBe(true);
    expect(operatorMaySeeSession(me, { listed: false, operatorID: other, participantIDs: [] })).toBe(false);
    expect(operatorMaySeeSession(me, { listed: false, operatorID: null, participantIDs: [other] })).toBe(false);
  });
});

describe('sessionStateOf', () => {
  it('is closed once closed, else assigned while it has an assignee, else queued', () => {
    expect(sessionStateOf({ closedAt: null, operatorID: null })).toBe('queued');
    expect(sessionStateOf({ closedAt: null, operatorID: me })).toBe('assigned');
    expect(sessionStateOf({ closedAt: new Date(), operatorID: me })).toBe('closed');
  });
});

describe('deliveryStatusMove', () => {
  it('moves forward only, fails from pending or sent, and calls a repeated status no move', () => {
    expect(deliveryStatusMove('pending', 'sent')).toBe('move');
    expect(deliveryStatusMove('pending', 'read')).toBe('move');
    expect(deliveryStatusMove('sent', 'delivered')).toBe('move');
    expect(deliveryStatusMove('delivered', 'delivered')).toBe('same');
    expect(deliveryStatusMove('delivered', 'sent')).toBe('refused');
    expect(deliveryStatusMove('read', 'delivered')).toBe('refused');
    expect(deliveryStatusMove('sent', 'failed')).toBe('move');
    expect(deliveryStatusMove('delivered', 'failed')).toBe('refused');
    expect(deliveryStatusMove('failed', 'sent')).toBe('refused');
  });

  it('numbers the statuses as operation 11 shows them', () => {
    expect([null, 'pending', 'sent', 'delivered', 'read', 'failed'].map((status) => messageStatusCodeOf(status as never))).toEqual([0, 0, 1, 2, 3, 4]);
  });
});
