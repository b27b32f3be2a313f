import { describe, expect, it } from 'vitest';
import { StreamedEvent } from '../streams/streamed-event';
import { mayReceive } from './visibility';

const ME = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const CONNECTION = '33333333-3333-4333-8333-333333333333';
const event = (type: string, data: Record<string, unknown>): StreamedEvent => ({ id: 'e', type, occurredAt: '', subject: null, data });
const operator = { kind: 'operator' as const, operatorID: ME };

describe('mayReceive', () => {
  it('shows an operator listed sessions, those assigned to them and those they take part in, as of the commit', () => {
    expect(mayReceive(operator, event('session.opened', { listed: true }))).toBe(true);
    expect(mayReceive(operator, event('session.assigned', { listed: false, operatorID: ME }))).toBe(true);
    expect(mayReceive(operator, event('session.participantJoined', { listed: false, operatorID: OTHER, participantIDs: [OTHER, ME] }))).toBe(true);
    expect(mayReceive(operator, event('session.assigned', { listed: false, operatorID: OTHER, participantIDs: [OTHER] }))).toBe(false);
  });

  it('shows nothing whose snapshot is missing or malformed', () => {
    expect(mayReceive(operator, event('message.created', {}))).toBe(false);
    expect(mayReceive(operator, event('message.created', { listed: 'true', participantIDs: ME }))).toBe(false);
    expect(mayReceive({ kind: 'pluginConnection', pluginConnectionID: CONNECTION }, event('message.created', {}))).toBe(false);
  });

  it('shows an operator only their own notification reads and counts, and no plugin or connection any', () => {
    for (const type of ['notifications.read', 'notifications.counts']) {
      expect(mayReceive(operator, event(type, { operatorID: ME }))).toBe(true);
      expect(mayReceive(operator, event(type, { operatorID: OTHER, listed: true }))).toBe(false);
      expect(mayReceive({ kind: 'plugin', pluginID: OTHER }, event(type, { operatorID: ME }))).toBe(false);
      expect(mayReceive({ kind: 'pluginConnection', pluginConnectionID: CONNECTION }, event(type, { operatorID: ME, pluginConnectionID: CONNECTION }))).toBe(false);
    }
  });

  it("shows every operator of the tenant each operator's presence, and no plugin or connection", () => {
    const presence = (operatorID: string) => event('operator.presenceChanged', { operatorID, status: 'online', chosenStatus: 'online', changedAt: '' });
    expect(mayReceive(operator, presence(ME))).toBe(true);
    expect(mayReceive(operator, presence(OTHER))).toBe(true);
    expect(mayReceive({ kind: 'plugin', pluginID: OTHER }, presence(ME))).toBe(false);
    expect(mayReceive({ kind: 'pluginConnection', pluginConnectionID: CONNECTION }, { ...presence(ME), data: { ...presence(ME).data, pluginConnectionID: CONNECTION } })).toBe(false);
  });

  it('shows a plugin every session event of its tenant, and a connection those of its inboxes', () => {
    expect(mayReceive({ kind: 'plugin', pluginID: OTHER }, event('session.closed', { listed: false }))).toBe(true);
    expect(mayReceive({ kind: 'pluginConnection', pluginConnectionID: CONNECTION }, event('message.created', { pluginConnectionID: CONNECTION }))).toBe(true);
    expect(mayReceive({ kind: 'pluginConnection', pluginConnectionID: CONNECTION }, event('message.created', { pluginConnectionID: OTHER, listed: true }))).toBe(false);
  });
});
