import { describe, expect, it } from 'vitest';
import { InvalidProviderAnswer, parseReadTraces, parseSessionTraceList, truncateDetailValue } from './trace-protocol.parser';

const listed = {
  messageID: '0B8E4C59-6B57-4D1F-9A34-2F6E1C0A9D11',
  messageFingerprint: 'sha256:abc',
  traceRef: 'tr-1',
  startedAt: '2026-11-20T10:00:00-03:00',
  durationMs: 12.5,
  status: 'succeeded',
  stepCount: 2,
};

const step = { stepID: 's1', title: 'Intenção', category: 'intention', status: 'succeeded', startedAt: '2026-11-20T13:00:00Z', durationMs: 3 };

describe('the provider protocol parser', () => {
  it('normalises times to UTC and message ids to lower case', () => {
    expect(parseSessionTraceList({ messages: [listed], sessionTraceRef: 'abc' })).toEqual({
      sessionTraceRef: 'abc',
      messages: [{ ...listed, messageID: listed.messageID.toLowerCase(), startedAt: '2026-11-20T13:00:00.000Z' }],
    });
  });

  it.each([
    ['not an object', []],
    ['messages missing', {}],
    ['a message id that is not a uuid', { messages: [{ ...listed, messageID: 'm-1' }] }],
    ['a time without a zone', { messages: [{ ...listed, startedAt: '2026-11-20T10:00:00' }] }],
    ['an impossible date', { messages: [{ ...listed, startedAt: '2026-02-31T10:00:00Z' }] }],
    ['a negative duration', { messages: [{ ...listed, durationMs: -1 }] }],
    ['a fractional step count', { messages: [{ ...listed, stepCount: 1.5 }] }],
    ['an unknown status', { messages: [{ ...listed, status: 'done' }] }],
    ['an empty traceRef', { messages: [{ ...listed, traceRef: '' }] }],
    ['too many messages', { messages: Array.from({ length: 1_001 }, () => listed) }],
  ])('refuses a list with %s', (_name, body) => {
    expect(() => parseSessionTraceList(body)).toThrow(InvalidProviderAnswer);
  });

  it('reads steps with their optional members, defaulting details and metrics to empty', () => {
    const [trace] = parseReadTraces({
      traces: [{ traceRef: 'tr-1', status: 'ready', processStatus: 'failed', startedAt: '2026-11-20T13:00:00Z', durationMs: 9, steps: [{ ...step, error: 'boom', subtitle: null }] }],
    });
    expect(trace).toEqual({
      traceRef: 'tr-1',
      status: 'ready',
      processStatus: 'failed',
      startedAt: '2026-11-20T13:00:00.000Z',
      durationMs: 9,
      steps: [{ ...step, startedAt: '2026-11-20T13:00:00.000Z', error: 'boom', details: [], metrics: [] }],
      details: [],
    });
  });

  it('takes a pending trace without processStatus as running, and a gone trace without anything else', () => {
    const [pending, gone] = parseReadTraces({
      traces: [
        { traceRef: 'p', status: 'pending', startedAt: '2026-11-20T13:00:00Z', durationMs: 0, steps: [] },
        { traceRef: 'g', status: 'expired', steps: 'whatever' },
      ],
    });
    expect(pending.processStatus).toBe('running');
    expect(gone).toEqual({ traceRef: 'g', status: 'expired', steps: [], details: [] });
  });

  it('refuses a ready trace without processStatus, or with a step that misses a member', () => {
    const base = { traceRef: 't', status: 'ready', startedAt: '2026-11-20T13:00:00Z', durationMs: 1 };
    expect(() => parseReadTraces({ traces: [{ ...base, steps: [] }] })).toThrow(/processStatus/);
    const { title: _title, ...untitled } = step;
    expect(() => parseReadTraces({ traces: [{ ...base, processStatus: 'succeeded', steps: [untitled] }] })).toThrow(/steps\.0\.title/);
    expect(() => parseReadTraces({ traces: [{ ...base, processStatus: 'succeeded', steps: [{ ...step, details: [{ kind: 'text', label: 'x', value: 3 }] }] }] })).toThrow(
      /details\.0\.value/,
    );
  });

  it('cuts detail values at 2,000 characters, counting code points, and keeps a provider\'s own truncated flag', () => {
    const emoji = '😀'.repeat(2_000);
    expect(truncateDetailValue(emoji, false)).toEqual({ value: emoji, truncated: false });
    expect(truncateDetailValue(`${emoji}a`, false)).toEqual({ value: emoji, truncated: true });
    expect(truncateDetailValue('short', true)).toEqual({ value: 'short', truncated: true });
  });
});
