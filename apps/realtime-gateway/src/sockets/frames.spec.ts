import { AppException } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { CLIENT_FRAME_SCHEMAS, CLOSE_CODE_MEANINGS, SERVER_FRAME_SCHEMAS } from './frame-schemas';
import { CLIENT_FRAME_TYPES, CLOSE_CODES, framed, parseClientFrame, ServerFrame } from './frames';

const refusedField = (text: string) => {
  try {
    parseClientFrame(text);
  } catch (error) {
    expect(error).toBeInstanceOf(AppException);
    return (error as AppException).fields?.[0]?.field;
  }
  throw new Error('accepted');
};

describe('parseClientFrame', () => {
  it('accepts the delivery frames, keeping only their fields', () => {
    expect(parseClientFrame('{"type":"subscribe","extra":1}')).toEqual({ type: 'subscribe' });
    expect(parseClientFrame('{"type":"resume","epoch":"e","offset":"1-0"}')).toEqual({ type: 'resume', epoch: 'e', offset: '1-0' });
    expect(parseClientFrame('{"type":"ping"}')).toEqual({ type: 'ping' });
    expect(parseClientFrame('{"type":"activity","socketID":"someone-else"}')).toEqual({ type: 'activity' });
  });

  it('refuses anything else with 1002 on the field at fault', () => {
    expect(refusedField('nope')).toBe('frame');
    expect(refusedField('[1]')).toBe('frame');
    expect(refusedField('null')).toBe('frame');
    expect(refusedField('{"type":"__proto__"}')).toBe('type');
    expect(refusedField('{"type":"resume","epoch":"e","offset":"1-0; DROP"}')).toBe('offset');
    expect(refusedField(`{"type":"resume","epoch":"${'e'.repeat(65)}","offset":"1-0"}`)).toBe('epoch');
  });
});

describe('frame schemas', () => {
  it('describe every client frame, every server frame and every close code', () => {
    expect(Object.keys(CLIENT_FRAME_SCHEMAS)).toEqual([...CLIENT_FRAME_TYPES]);
    const serverTypes: Record<ServerFrame['type'], true> = {
      welcome: true,
      subscribed: true,
      event: true,
      heartbeat: true,
      'resync-required': true,
      reconnect: true,
      error: true,
      result: true,
      pong: true,
    };
    expect(Object.keys(SERVER_FRAME_SCHEMAS).sort()).toEqual(Object.keys(serverTypes).sort());
    expect(Object.keys(CLOSE_CODE_MEANINGS).map(Number).sort()).toEqual(Object.values(CLOSE_CODES).sort());
  });
});

describe('framed', () => {
  it('encodes an event frame once, as the JSON text every socket receives', () => {
    const event = { id: '7d7f3c3e-1f0b-4f59-a0a5-8f1e1b0c9d2a', type: 'message.created', occurredAt: '2026-11-28T18:00:00.000001Z', subject: 'session:s', data: { listed: true, text: 'olá' } };
    const entry = framed({ offset: '1764950400000-0', epoch: 'e', event });
    expect(entry.frame.toString('utf8')).toBe(
      '{"type":"event","epoch":"e","offset":"1764950400000-0","event":{"id":"7d7f3c3e-1f0b-4f59-a0a5-8f1e1b0c9d2a","type":"message.created",' +
        '"occurredAt":"2026-11-28T18:00:00.000001Z","subject":"session:s","data":{"listed":true,"text":"olá"}}}',
    );
    expect(entry).toMatchObject({ offset: '1764950400000-0', epoch: 'e', event });
  });
});
