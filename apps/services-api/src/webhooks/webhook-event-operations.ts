import { getSchemaPath } from '@nestjs/swagger';
import type { OperationObject, ParameterObject, PathItemObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { WEBHOOK_EVENT_PAYLOADS, WEBHOOK_EVENT_TYPE_NAMES, WEBHOOK_EVENT_TYPES, WebhookEventType } from '@platform/webhooks';

/** The Standard Webhooks headers every delivery carries. */
const DELIVERY_HEADERS: ParameterObject[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description: "The event's id: the same on every attempt of this event, so a receiver can drop a repeat",
  },
  { name: 'webhook-timestamp', in: 'header', required: true, schema: { type: 'string', example: '1764806400' }, description: 'Seconds since the Unix epoch, when the attempt was signed' },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    schema: { type: 'string', example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' },
    description: "Space-separated `v1,<base64 HMAC-SHA256>` signatures, one per signing secret in use (two during a rotation's grace period)",
  },
];

/** `webhook.test` → `webhookTest`, an operation id in camelCase like the API's. */
function operationIdOf(type: WebhookEventType): string {
  return type.replace(/\.([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

function operationOf(type: WebhookEventType): OperationObject {
  const payload = WEBHOOK_EVENT_PAYLOADS[type];
  const ordered = WEBHOOK_EVENT_TYPES[type].ordered;
  return {
    operationId: operationIdOf(type),
    summary: `The ${type} event`,
    description:
      `POSTed to every enabled endpoint of the tenant that subscribed to \`${type}\`, signed under Standard Webhooks` +
      `${ordered ? '; the events of one subject arrive in the order they occurred' : ''}. A 2xx answer acknowledges it.`,
    tags: ['Webhooks'],
    security: [],
    parameters: DELIVERY_HEADERS,
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['type', 'timestamp', 'data'],
            properties: {
              type: { type: 'string', enum: [type] },
              timestamp: { type: 'string', format: 'date-time', description: 'When the event occurred' },
              data: { $ref: getSchemaPath(payload) },
            },
          },
        },
      },
    },
    responses: { '200': { description: 'Any 2xx status acknowledges the delivery' } },
  };
}

/**
 * The services API document's `x-webhooks`: one operation per event type,
 * the request a receiver gets (docs/webhooks.md). The payload classes are
 * components of the document through the endpoints controller's `@ApiExtraModels`.
 */
export function webhookEventOperations(): Record<string, PathItemObject> {
  return Object.fromEntries(WEBHOOK_EVENT_TYPE_NAMES.map((type) => [type, { post: operationOf(type) }]));
}
