import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unreleasableChanges } from './breaking-changes';

/** A document as the code describes it today, to doctor. */
function committed(app: string) {
  return JSON.parse(readFileSync(`docs/openapi/${app}.json`, 'utf8'));
}

/** The same document at another version. */
function atVersion<T extends { info: { version: string } }>(document: T, version: string): T {
  return { ...document, info: { ...document.info, version } };
}

// openapi-diff compares every body schema as a JSON schema: seconds per document.
describe('unreleasableChanges', { timeout: 120_000 }, () => {
  it('passes a document against itself and against a release it only adds to', async () => {
    const released = committed('plugins-helpdesk');
    expect(await unreleasableChanges(released, released)).toEqual([]);
    const current = committed('plugins-helpdesk');
    current.paths['/helpdesk/v1/tenants/{tenantID}/helpdesk/domains/{domainHostname}'].get = {
      ...current.paths['/helpdesk/v1/tenants/{tenantID}/helpdesk/domains/{domainHostname}'].delete,
      operationId: 'readHelpdeskDomain',
    };
    expect(await unreleasableChanges(released, atVersion(current, '0.85.0'))).toEqual([]);
  });

  it('fails an operation removed, unless the major is raised', async () => {
    const released = committed('plugins-helpdesk');
    const current = committed('plugins-helpdesk');
    delete current.paths['/helpdesk/v1/tenants/{tenantID}/helpdesk/domains/{domainHostname}'].delete;
    const changes = await unreleasableChanges(released, atVersion(current, '0.85.0'));
    expect(changes).toEqual([expect.objectContaining({ code: 'method.remove' })]);
    expect(await unreleasableChanges(released, atVersion(current, '1.0.0'))).toEqual([]);
  });

  it('fails a response field removed and a request field newly required', async () => {
    const released = committed('plugins-helpdesk');
    const current = committed('plugins-helpdesk');
    const removed = current.components.schemas.DomainRemoved;
    delete removed.properties.deleted;
    removed.required = removed.required.filter((name: string) => name !== 'deleted');
    current.components.schemas.AddDomainBody.required.push('doesNotExistYet');
    current.components.schemas.AddDomainBody.properties.doesNotExistYet = { type: 'string' };
    const codes = (await unreleasableChanges(released, current)).map((change) => change.code).sort();
    expect(codes).toEqual(['request.body.scope.remove', 'response.body.scope.add']);
  });

  it('fails an operationId renamed and a parameter newly required, which openapi-diff leaves out', async () => {
    const released = committed('plugins-helpdesk');
    const current = committed('plugins-helpdesk');
    const list = current.paths['/helpdesk/v1/tenants/{tenantID}/helpdesk/domains'].get;
    list.operationId = 'listDomains';
    list.parameters.push({ name: 'X-Shard', in: 'header', required: true, schema: { type: 'string' } });
    expect(await unreleasableChanges(released, current)).toEqual([
      { code: 'operation.id.change', where: 'paths./helpdesk/v1/tenants/{tenantID}/helpdesk/domains.get: listHelpdeskDomains -> listDomains' },
      { code: 'request.parameter.required.add', where: 'paths./helpdesk/v1/tenants/{tenantID}/helpdesk/domains.get: header X-Shard' },
    ]);
  });
});
