import { describe, expect, it } from 'vitest';
import { PathMethods } from './path-methods';

describe('PathMethods', () => {
  const methods = new PathMethods({ maxParamLength: 100 });
  methods.add('GET', '/v1/tenants/:tenantID/campaigns-models');
  methods.add('HEAD', '/v1/tenants/:tenantID/campaigns-models');
  methods.add('POST', '/v1/tenants/:tenantID/campaigns-models');
  methods.add(['PUT', 'get'], '/v1/tenants/:tenantID/campaigns-models/:campaignModelID');
  methods.add('GET', '/docs/*');

  it('lists the methods of the routes matching a concrete path, sorted, ignoring the query string', () => {
    expect(methods.allowedAt('/v1/tenants/abc/campaigns-models?page=2')).toEqual(['GET', 'HEAD', 'POST']);
    expect(methods.allowedAt('/v1/tenants/abc/campaigns-models/def')).toEqual(['GET', 'PUT']);
    expect(methods.allowedAt('/docs/swagger-ui.css')).toEqual(['GET']);
  });

  it('matches as Fastify does: none for a path no route matches or a parameter over the limit, an empty parameter matching', () => {
    expect(methods.allowedAt('/v1/tenants/abc/nothing')).toEqual([]);
    expect(methods.allowedAt(`/v1/tenants/${'a'.repeat(101)}/campaigns-models`)).toEqual([]);
    expect(methods.allowedAt('/v1/tenants//campaigns-models')).toEqual(['GET', 'HEAD', 'POST']);
  });
});
