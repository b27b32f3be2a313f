import { createPluginsHelpdeskClient } from '@platform/api-client';
import { describe, expect, it } from 'vitest';
import { ResponseContract } from './response-contract';

/** A helpdesk client whose every answer is `answer`, checked against the committed document. */
function helpdeskAnswering(answer: () => Response) {
  const client = createPluginsHelpdeskClient('http://127.0.0.1:1', { fetch: async () => answer() });
  client.use(ResponseContract.committed().middleware('plugins-helpdesk'));
  return client;
}

const DOMAIN = { domainHostname: 'help.example.com', domainProviderID: 'cf-1', domainStatus: 'pending', lastCheckedAt: null, verifiedAt: null };
const META = { count: 1, currentPage: 1, hasMore: false, perPage: 20, totalCount: 1, totalPages: 1 };
const LIST = { params: { path: { tenantID: '0b0c2f5e-3c3b-4d7e-9a43-5f0f3b2f6a11' } } };

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

describe('ResponseContract', () => {
  it('passes an answer the document describes', async () => {
    const helpdesk = helpdeskAnswering(() => json(200, { data: [DOMAIN], meta: META }));
    const { data } = await helpdesk.GET('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains', LIST);
    expect(data?.data[0].domainHostname).toBe('help.example.com');
  });

  it('fails an answer whose body drifted from its schema: a field missing, a type changed', async () => {
    const { domainStatus: _, ...withoutStatus } = DOMAIN;
    const missing = helpdeskAnswering(() => json(200, { data: [withoutStatus], meta: META }));
    await expect(missing.GET('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains', LIST)).rejects.toThrow(
      "body: body/data/0 must have required property 'domainStatus'",
    );
    const retyped = helpdeskAnswering(() => json(200, { data: [DOMAIN], meta: { ...META, count: '1' } }));
    await expect(retyped.GET('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains', LIST)).rejects.toThrow('body/meta/count must be number');
  });

  it('fails a status, a media type or an error envelope the document does not describe', async () => {
    const teapot = helpdeskAnswering(() => json(418, { errors: [] }));
    await expect(teapot.GET('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains', LIST)).rejects.toThrow('status 418 is not documented');
    const text = helpdeskAnswering(() => new Response('ok', { status: 200, headers: { 'content-type': 'text/plain' } }));
    await expect(text.GET('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains', LIST)).rejects.toThrow('media type "text/plain" is not documented');
    const bareError = helpdeskAnswering(() => json(401, { message: 'Unauthorized' }));
    await expect(bareError.GET('/helpdesk/v1/tenants/{tenantID}/helpdesk/domains', LIST)).rejects.toThrow("must have required property 'errors'");
  });
});
