import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { WEBHOOK_EVENT_PAYLOADS, WEBHOOK_EVENT_TYPE_NAMES } from '@platform/webhooks';
import { describe, expect, it } from 'vitest';
import { webhookEventOperations } from './webhook-event-operations';

/** The committed document, which an end-to-end test proves is the one served. */
const document = JSON.parse(readFileSync(resolve(__dirname, '../../../../docs/openapi/services-api.json'), 'utf8'));

describe("the services API document's webhooks", () => {
  it('describes the request of every event type under x-webhooks, its data a component of the document', () => {
    expect(Object.keys(document['x-webhooks'])).toEqual(WEBHOOK_EVENT_TYPE_NAMES);
    expect(document['x-webhooks']).toEqual(webhookEventOperations());
    for (const type of WEBHOOK_EVENT_TYPE_NAMES) {
      const body = document['x-webhooks'][type].post.requestBody.content['application/json'].schema;
      expect(body.properties.type.enum).toEqual([type]);
      const component = body.properties.data.$ref.replace('#/components/schemas/', '');
      expect(component).toBe(WEBHOOK_EVENT_PAYLOADS[type].name);
      expect(document.components.schemas[component], type).toMatchObject({ type: 'object', properties: expect.any(Object) });
    }
  });

  it("holds each payload's fields as its class declares them", () => {
    expect(document.components.schemas.MemberRoleChangedData).toMatchObject({
      required: ['operatorID', 'previousRole', 'role'],
      properties: { operatorID: { type: 'string', format: 'uuid' }, role: { type: 'string', enum: expect.arrayContaining(['owner', 'member']) } },
    });
  });
});
