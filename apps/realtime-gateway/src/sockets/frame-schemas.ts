import { NOTIFICATION_COUNTS_SCHEMA, REPORTED_DELIVERY_STATUSES } from '@platform/conversations';
import { PRESENCE_STATUSES } from '@platform/database';
import { ERROR_CATALOG } from '@platform/errors';
import { REALTIME_EVENT_TYPES } from '../streams/streamed-event';
import { REQUEST_ID, REQUEST_ID_ALLOWED } from './channel-requests';
import { CLIENT_FRAME_TYPES, CLOSE_CODES } from './frames';
import { REALTIME_PATH } from './upgrade-authentication';

/**
 * The protocol as data: the JSON Schema of every frame, the events and the
 * close codes, from which tools/asyncapi writes (and `npm run lint` checks)
 * docs/asyncapi/realtime-gateway.yaml. frames.ts holds the types; a spec
 * checks the two agree on the frame names.
 */
type Schema = Record<string, unknown>;

const offset = { type: 'string', pattern: '^\\d{1,20}-\\d{1,20}$', description: 'Position in the tenant\'s stream (`<ms>-<seq>`).', examples: ['1764950400000-0'] };
const epoch = { type: 'string', description: 'Which incarnation of the tenant\'s stream the offset belongs to.', examples: ['2f1b8f0e-6d7c-4b5a-9e3d-1c2b3a4d5e6f'] };
const uuid = { type: 'string', format: 'uuid' };
const requestID = { type: 'string', pattern: REQUEST_ID.source, description: `Chosen by the client (${REQUEST_ID_ALLOWED}), echoed in the answer.`, examples: ['r-42'] };
const frame = (type: string, description: string, properties: Record<string, Schema> = {}): Schema => ({
  type: 'object',
  description,
  required: ['type', ...Object.keys(properties)],
  additionalProperties: false,
  properties: { type: { const: type }, ...properties },
});

/** A frame schema with properties a frame may carry or not. */
const withOptional = (schema: Schema, properties: Record<string, Schema>): Schema => ({ ...schema, properties: { ...(schema.properties as Record<string, Schema>), ...properties } });

export const CLIENT_FRAME_SCHEMAS: Record<(typeof CLIENT_FRAME_TYPES)[number], Schema> = {
  subscribe: frame('subscribe', 'Start receiving from now.'),
  resume: frame('resume', 'Start after the last event received: its epoch and offset. An offset no stream can hold (a number past 2^64-1) is answered with `resync-required`.', { epoch, offset }),
  ping: frame('ping', 'Answered with `pong`.'),
  activity: frame(
    'activity',
    "An operator's socket: the user is active (typing, clicking, reading). Not answered. The socket's own lease carries it to the presence rule " +
      '(an operator who chose online and sent none on any socket for PRESENCE_AWAY_AFTER_SECONDS is away). From a plugin or connection socket: `error` 400 1002.',
  ),
  'post-message': frame(
    'post-message',
    'A plugin connection posts what a contact wrote: `POST /v1/tenants/{tenantID}/inboxes/{inboxID}/messages` of services-api, its tenant the socket\'s. ' +
      'Answered with `result` (201 stored, 200 when the inbox has that channelMessageID already) or `error`, each with the requestID.',
    {
      requestID,
      inboxID: { ...uuid, description: 'An inbox of the connection.' },
      message: {
        type: 'object',
        description: 'The REST body, checked by services-api as over REST (400 1002 with `fields`, 422 1948, 404 1940).',
        required: ['contactHandle', 'channelMessageID', 'content'],
        properties: { contactHandle: { type: 'string' }, contactName: { type: 'string' }, channelMessageID: { type: 'string' }, content: { type: 'string' } },
      },
    },
  ),
  'report-delivery-status': frame(
    'report-delivery-status',
    'A plugin connection reports an outbound message\'s delivery: `PUT /v1/tenants/{tenantID}/messages/{messageID}/delivery-status`. Answered with `result` (200) or `error`.',
    { requestID, messageID: uuid, deliveryStatus: { type: 'string', enum: [...REPORTED_DELIVERY_STATUSES] } },
  ),
};

const errorBody = {
  type: 'object',
  required: ['statusCode', 'error', 'error_code', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    error: { type: 'string', examples: [ERROR_CATALOG.RequestValidation.name] },
    error_code: { type: 'integer', examples: [ERROR_CATALOG.RequestValidation.code] },
    message: { type: 'string' },
    fields: {
      type: 'array',
      items: { type: 'object', required: ['field', 'allowed'], properties: { field: { type: 'string' }, received: { type: 'string' }, allowed: { type: 'string' } } },
    },
  },
};

export const EVENT_SCHEMA: Schema = {
  type: 'object',
  required: ['id', 'type', 'occurredAt', 'subject', 'data'],
  properties: {
    id: { ...uuid, description: 'The outbox event\'s id: the same when an event arrives twice (ignore the repeat).' },
    type: { type: 'string', enum: [...REALTIME_EVENT_TYPES] },
    occurredAt: { type: 'string', format: 'date-time', description: 'When the change happened, to the microsecond.' },
    subject: { type: ['string', 'null'], description: '`session:<sessionID>`, or `operator:<operatorID>` for notifications.read, notifications.counts and operator.presenceChanged.' },
    data: {
      type: 'object',
      description:
        'The event\'s payload as the change recorded it; session and message events carry these fields, and the session or message as the REST read shows it. ' +
        'notifications.read carries operatorID, sessionID, inboxID and markedRead; notifications.counts carries operatorID and counts; ' +
        'operator.presenceChanged (to every operator socket of the tenant, no plugin) carries operatorID, status, chosenStatus and changedAt.',
      properties: {
        sessionID: uuid,
        inboxID: uuid,
        pluginConnectionID: { type: ['string', 'null'], format: 'uuid' },
        listed: { type: 'boolean' },
        operatorID: { type: ['string', 'null'], format: 'uuid', description: 'The assignee as of the commit; for notifications.read, notifications.counts and operator.presenceChanged, the operator they are about.' },
        participantIDs: { type: 'array', items: uuid },
        status: { type: 'string', enum: [...PRESENCE_STATUSES], description: "operator.presenceChanged: the operator's status in effect now (docs/presence.md)." },
        chosenStatus: { type: 'string', enum: [...PRESENCE_STATUSES], description: 'operator.presenceChanged: the status the operator chose.' },
        changedAt: { type: 'string', format: 'date-time', description: 'operator.presenceChanged: when the status in effect changed.' },
        markedRead: { type: 'integer', description: 'notifications.read: the notifications of the session this read marked read.' },
        counts: {
          ...NOTIFICATION_COUNTS_SCHEMA,
          description: 'notifications.counts: the operator\'s unread counts by category, exactly what operation 14 (GET /v1/tenants/{tenantID}/notifications) answers them as of the change\'s commit; `{}` when nothing is unread.',
          examples: [{ '9b2f6c1e-4d3a-4f5b-8c7d-0e1f2a3b4c5d': 3, mention: 1 }],
        },
      },
    },
  },
};

export const SERVER_FRAME_SCHEMAS: Record<string, Schema> = {
  welcome: frame('welcome', 'The socket is open; send `subscribe` or `resume`.', { connectionID: uuid, tenantID: uuid, heartbeatSeconds: { type: 'integer' } }),
  subscribed: frame('subscribed', 'Delivery starts after `offset` (on resume, the missed events follow).', { epoch, offset }),
  event: frame('event', 'One event.', { epoch, offset, event: EVENT_SCHEMA }),
  heartbeat: frame('heartbeat', 'The offset the socket has passed with no event for it: keep it for a resume.', { epoch, offset }),
  'resync-required': frame(
    'resync-required',
    'Events up to `offset` cannot be delivered (past the window, another epoch, or an entry that lapsed before it reached the socket): fetch the state over REST; delivery goes on after `offset`. ' +
      'Answers a resume, or comes after `subscribed` or between events: never a silent gap.',
    { epoch, offset },
  ),
  reconnect: frame('reconnect', 'The replica is stopping: reconnect with `resume` after `afterMs`; the socket then closes with 1012.', { afterMs: { type: 'integer', minimum: 0 } }),
  error: withOptional(frame('error', 'A frame was refused, or a request answered with an error (then with its requestID); the socket stays open.', { error: errorBody }), { requestID }),
  result: frame('result', 'The answer to a request: the REST status and the `data` services-api answered.', {
    requestID,
    status: { type: 'integer', examples: [201, 200] },
    data: { type: 'object', description: 'As the REST route answers it (services-api\'s document): `{message, session}` for post-message, the message for report-delivery-status.' },
  }),
  pong: frame('pong', 'The answer to `ping`.'),
};

/** What each close code means, for the document. */
export const CLOSE_CODE_MEANINGS: Record<number, string> = {
  [CLOSE_CODES.frameTooLarge]: 'A client frame above REALTIME_MAX_FRAME_BYTES.',
  [CLOSE_CODES.restarting]: 'The replica is stopping (after a `reconnect` frame): reconnect with `resume`.',
  [CLOSE_CODES.credentialExpired]: 'The operator token behind the ticket expired: ask a new ticket, then resume.',
  [CLOSE_CODES.accessRevoked]: 'Access to the tenant was revoked (member removed, connection uninstalled): stop.',
  [CLOSE_CODES.idle]: 'No pong or frame for two heartbeats: reconnect with `resume`.',
  [CLOSE_CODES.slowConsumer]: 'Slow consumer: more than REALTIME_SOCKET_BUFFER_BYTES waited: reconnect with `resume`.',
  [CLOSE_CODES.tooManyFrames]: 'More than REALTIME_MAX_FRAMES_PER_10S client frames: reconnect later with `resume`.',
};

export { REALTIME_PATH };
