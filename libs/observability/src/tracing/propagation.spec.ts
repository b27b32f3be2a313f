import { describe, expect, it } from 'vitest';
import { currentRequestId, runWithRequestId } from '../request-scope';
import { continueFrom, continueJobFrom, detachedFromRequest, propagatedHeaders, SpanKind } from './propagation';

const description = { name: 'test work', kind: SpanKind.CONSUMER };

/** With tracing off (no SDK in this process): what travels is the request id alone. */
describe('request id propagation', () => {
  it('passes on the request id of the work running now, and nothing outside any', () => {
    expect(runWithRequestId('req-1', () => propagatedHeaders())).toEqual({ 'x-request-id': 'req-1' });
    expect(propagatedHeaders()).toBeUndefined();
  });

  it('continues work under the request id its headers carry, across awaits', async () => {
    const seen = await continueJobFrom({ 'x-request-id': 'req-2' }, description, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return currentRequestId();
    });
    expect(seen).toBe('req-2');
  });

  it('starts afresh for headers that are absent, malformed or carry an insane id, even inside another request', () => {
    runWithRequestId('outer', () => {
      expect(continueFrom(undefined, description, () => currentRequestId())).toBeUndefined();
      expect(continueFrom('not headers', description, () => currentRequestId())).toBeUndefined();
      expect(continueFrom({ 'x-request-id': 'has spaces and ;' }, description, () => currentRequestId())).toBeUndefined();
    });
  });

  it('lets a timer set during a request run outside it', async () => {
    const seen = await runWithRequestId('req-3', () => detachedFromRequest(() => new Promise((resolve) => setTimeout(() => resolve(currentRequestId()), 1))));
    expect(seen).toBeUndefined();
  });
});
