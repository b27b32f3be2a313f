import { describe, expect, it } from 'vitest';
import { DescribedApi, operationIdProblems, versionProblems } from './contract-rules';

function documentOf(paths: DescribedApi['paths'], version = '1.2.3'): DescribedApi {
  return { info: { version }, paths };
}

describe('operationIdProblems', () => {
  it('accepts explicit camelCase ids, and the same id for the same operation in two documents', () => {
    const health = { '/health/live': { get: { operationId: 'checkLiveness' } } };
    const documents = {
      a: documentOf({ ...health, '/v1/things': { get: { operationId: 'listThings' }, post: { operationId: 'createThing' }, parameters: [] } }),
      b: documentOf(health),
    };
    expect(operationIdProblems(documents)).toEqual([]);
  });

  it("refuses an operation without an id, with Nest's default id, or with another casing", () => {
    const documents = {
      a: documentOf({
        '/v1/things': { get: {}, post: { operationId: 'ThingsController_create' } },
        '/v1/things/{id}': { get: { operationId: 'read_thing' }, delete: { operationId: 'DeleteThing' } },
      }),
    };
    expect(operationIdProblems(documents)).toEqual([
      'a: GET /v1/things has no explicit operationId (set one in its @ApiOperation)',
      'a: POST /v1/things has no explicit operationId (set one in its @ApiOperation)',
      'a: GET /v1/things/{id}: operationId "read_thing" is not camelCase (verbNoun)',
      'a: DELETE /v1/things/{id}: operationId "DeleteThing" is not camelCase (verbNoun)',
    ]);
  });

  it('refuses one id for two operations, in one document or across documents', () => {
    const documents = {
      a: documentOf({ '/v1/things': { get: { operationId: 'listThings' }, post: { operationId: 'listThings' } } }),
      b: documentOf({ '/v1/others': { get: { operationId: 'listThings' } } }),
    };
    expect(operationIdProblems(documents)).toEqual([
      'a: operationId "listThings" names two operations',
      'operationId "listThings" names GET /v1/things in a and GET /v1/others in b',
    ]);
  });
});

describe('versionProblems', () => {
  it('names every document and package whose version is not the API version', () => {
    const documents = { a: documentOf({}, '1.2.3'), b: documentOf({}, '1.2.4') };
    expect(versionProblems('1.2.3', documents, { 'package.json': '1.2.3', 'libs/api-client/package.json': '1.0.0' })).toEqual([
      'b: info.version 1.2.4 is not the API version 1.2.3',
      'libs/api-client/package.json: version 1.0.0 is not the API version 1.2.3 (API_VERSION, libs/http/common)',
    ]);
  });
});
