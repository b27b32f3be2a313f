import { describe, expect, it } from 'vitest';
import { fingerprintOf, RequestParameters } from './fingerprint';

const request: RequestParameters = {
  method: 'POST',
  route: '/v1/tenants/:tenantID/campaigns-models',
  params: { tenantID: '0b7c5c1e-3f0a-4c55-9a55-2e4f7f0d1a11' },
  body: { campaignModelName: 'Order update', campaignModelTags: ['a', 'b'], campaignModelMeta: { team: 'x', level: 1 } },
};

describe('fingerprintOf', () => {
  it('is a SHA-256 in hex, the same for the same request', () => {
    expect(fingerprintOf(request)).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprintOf(structuredClone(request))).toBe(fingerprintOf(request));
  });

  it('does not depend on the order of object keys, at any depth', () => {
    const reordered: RequestParameters = {
      ...request,
      body: { campaignModelMeta: { level: 1, team: 'x' }, campaignModelTags: ['a', 'b'], campaignModelName: 'Order update' },
    };
    expect(fingerprintOf(reordered)).toBe(fingerprintOf(request));
  });

  it('ignores the case of the method, and fields set to undefined (absent from JSON)', () => {
    expect(fingerprintOf({ ...request, method: 'post' })).toBe(fingerprintOf(request));
    expect(fingerprintOf({ ...request, body: { ...(request.body as object), extra: undefined } })).toBe(fingerprintOf(request));
  });

  it.each<[string, Partial<RequestParameters>]>([
    ['method', { method: 'PUT' }],
    ['route', { route: '/v1/tenants/:tenantID/plugins/connections' }],
    ['path parameter', { params: { tenantID: '1b7c5c1e-3f0a-4c55-9a55-2e4f7f0d1a11' } }],
    ['body value', { body: { ...(request.body as object), campaignModelName: 'Order updated' } }],
    ['array order', { body: { ...(request.body as object), campaignModelTags: ['b', 'a'] } }],
    ['value type', { body: { ...(request.body as object), campaignModelMeta: { team: 'x', level: '1' } } }],
    ['null body', { body: null }],
  ])('changes with the %s', (_, change) => {
    expect(fingerprintOf({ ...request, ...change })).not.toBe(fingerprintOf(request));
  });

  it('tells a missing body from an empty one', () => {
    expect(fingerprintOf({ ...request, body: undefined })).not.toBe(fingerprintOf({ ...request, body: {} }));
  });
});
