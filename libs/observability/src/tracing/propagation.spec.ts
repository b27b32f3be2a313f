import { describe, expect, it } from 'vitest';
import { actAs, currentActor, currentRequestID, runWithRequestID } from '../request-scope';
import { continueFrom, continueJobFrom, detachedFromRequest, propagatedHeaders, SpanKind } from './propagation';

const description = { name: 'test work', kind: SpanKind.CONSUMER };

/** With tracing off (no SDK in this process): what travels is the request id alone. */
describe('request id propagation', () => {
  it('passes on the request id of the work running now, and nothing outside any', () => {
    expect(runWithRequestID('req-1', () => propagatedHeaders())).toEqual({ 'x-request-id': 'req-1' });
    expect(propagatedHeaders()).toBeUndefined();
  });

  it('passes on the actor once the request is authenticated, and continues work as that actor', () => {
    const actor = 'operator:3b241101-e2bb-4255-8caf-4136c566a962';
    const headers = runWithRequestID('req-9', () => {
      actAs(actor);
      return propagatedHeaders();
    });
    expect(headers).toEqual({ 'x-request-id': 'req-9', 'x-actor': actor });
    expect(continueFrom(headers, description, () => currentActor())).toBe(actor);
  });

  it('ignores an actor that is not kind:uuid', () => {
    for (const actor of ['admin:3b241101-e2bb-4255-8caf-4136c566a962', 'operator:not-a-uuid', 'operator']) {
      expect(continueFrom({ 'x-request-id': 'req-10', 'x-actor': actor }, description, () => currentActor())).toBeUndefined();
    }
  });

  it('continues work under the request id its headers carry, across awaits', async () => {
    const seen = await continueJobFrom({ 'x-request-id': 'req-2' }, description, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return currentRequestID();
    });
    expect(seen).toBe('req-2');
  });

  it('starts afresh for headers that are absent, malformed or carry an insane id, even inside another request', () => {
    runWithRequestID('outer', () => {
      expect(continueFrom(undefined, description, () => currentRequestID())).toBeUndefined();
      expect(continueFrom('not headers', description, () => currentRequestID())).toBeUndefined();
      expect(continueFrom({ 'x-request-id': 'has spaces and ;' }, description, () => currentRequestID())).toBeUndefined();
    });
  });

  it('lets a timer set during a request run outside it', async () => {
    const seen = await runWithRequestID('req-3', () => detachedFromRequest(() => new Promise((resolve) => setTimeout(() => resolve(currentRequestID()), 1))));
    expect(seen).toBeUndefined();
  });
});
