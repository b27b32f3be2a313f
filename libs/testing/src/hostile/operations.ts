/** Which app serves an operation. */
export type AppRole = 'core' | 'services' | 'helpdesk';

/** What an operation's path parameters hold, so that a well-formed value can be put in their place. */
export type PathParameter = 'tenantID' | 'uuid' | 'hostname';

/** One operation the hostile requests aim at. */
export interface TargetOperation {
  name: string;
  app: AppRole;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Literal segments and parameters, e.g. ['v1', 'tenants', {param: 'tenantID'}, 'notifications']. */
  segments: (string | { param: PathParameter })[];
  /** Whether it reads a JSON body. */
  body: boolean;
  /** Whether it requires a credential (a forged one must never get a 2xx). */
  authenticated: boolean;
  /**
   * The 5xx error codes the contract lists for it that a hostile request may
   * meet (a provider or e-mail check failing). 500 5999, which the contract
   * lists for failures of the platform's own, is never one: no input of the
   * client's may cause it.
   */
  serverErrors: number[];
}

const tenant = { param: 'tenantID' } as const;
const uuid = { param: 'uuid' } as const;
const hostname = { param: 'hostname' } as const;

const webhookEndpoints = ['v1', 'tenants', tenant, 'webhooks', 'endpoints'] as const;
const webhookEndpoint = [...webhookEndpoints, uuid] as const;
const webhookDeliveries = [...webhookEndpoint, 'deliveries'] as const;
const team = ['v1', 'tenants', tenant, 'operators'] as const;
const inboxes = ['v1', 'tenants', tenant, 'inboxes'] as const;
const session = ['v1', 'tenants', tenant, 'sessions', uuid] as const;

const op = (name: string, app: AppRole, method: TargetOperation['method'], segments: TargetOperation['segments'], extra: Partial<TargetOperation> = {}): TargetOperation => ({
  name,
  app,
  method,
  segments,
  body: method === 'POST' || method === 'PUT' || method === 'PATCH',
  authenticated: true,
  serverErrors: [],
  ...extra,
});

/** The contract's operations 1-15, operator sign-in, plugin installation, webhooks, team management and conversations. */
export const TARGET_OPERATIONS: readonly TargetOperation[] = [
  op('1 delete plugin connection', 'services', 'DELETE', ['v1', 'tenants', tenant, 'plugins', 'connections', uuid], { serverErrors: [5002] }),
  op('2 create campaign model', 'services', 'POST', ['v1', 'tenants', tenant, 'campaigns-models']),
  op('3 update campaign model', 'services', 'PUT', ['v1', 'tenants', tenant, 'campaigns-models', uuid]),
  op('4 list campaign models', 'services', 'GET', ['v1', 'tenants', tenant, 'campaigns-models']),
  op('5 read campaign model', 'services', 'GET', ['v1', 'tenants', tenant, 'campaigns-models', uuid]),
  op('6 campaigns stats', 'services', 'GET', ['v1', 'tenants', tenant, 'campaigns', 'stats']),
  op('7 list shortcuts', 'services', 'GET', ['v1', 'tenants', tenant, 'operators', 'shortcuts']),
  op('8 request e-mail verification', 'services', 'POST', ['v1', 'operators', 'email-verification'], { authenticated: false, serverErrors: [5016] }),
  op('9 discover processing traces', 'services', 'GET', ['v1', 'tenants', tenant, 'sessions', uuid, 'processing-traces']),
  op('10 retrieve processing traces', 'services', 'POST', ['v1', 'tenants', tenant, 'sessions', uuid, 'processing-traces', 'retrieval']),
  op('11 list contact sessions', 'services', 'GET', ['v1', 'tenants', tenant, 'contacts', uuid, 'sessions']),
  op('12 refresh helpdesk domain', 'helpdesk', 'POST', ['helpdesk', 'v1', 'tenants', tenant, 'helpdesk', 'domains', hostname, 'refresh'], { body: false, serverErrors: [1122] }),
  op('13 remove helpdesk domain', 'helpdesk', 'DELETE', ['helpdesk', 'v1', 'tenants', tenant, 'helpdesk', 'domains', hostname], { serverErrors: [1122] }),
  op('14 list notifications', 'services', 'GET', ['v1', 'tenants', tenant, 'notifications']),
  op('15 list tenants', 'core', 'GET', ['tenants']),
  op('sign in', 'core', 'POST', ['v1', 'operators', 'sign-in'], { authenticated: false }),
  op('install plugin', 'services', 'POST', ['v1', 'tenants', tenant, 'plugins', 'connections']),
  op('create webhook endpoint', 'services', 'POST', [...webhookEndpoints]),
  op('list webhook endpoints', 'services', 'GET', [...webhookEndpoints]),
  op('read webhook endpoint', 'services', 'GET', [...webhookEndpoint]),
  op('change webhook endpoint', 'services', 'PATCH', [...webhookEndpoint]),
  op('delete webhook endpoint', 'services', 'DELETE', [...webhookEndpoint]),
  // Rotations and test events read no body.
  op('rotate webhook secret', 'services', 'POST', [...webhookEndpoint, 'secret-rotations'], { body: false }),
  op('send webhook test event', 'services', 'POST', [...webhookEndpoint, 'test-events'], { body: false }),
  op('list webhook deliveries', 'services', 'GET', [...webhookDeliveries]),
  op('read webhook delivery', 'services', 'GET', [...webhookDeliveries, uuid]),
  op('retry webhook delivery', 'services', 'POST', [...webhookDeliveries, uuid, 'retries'], { body: false }),
  op('list team members', 'services', 'GET', [...team]),
  op('change member role', 'services', 'PATCH', [...team, uuid]),
  op('remove member', 'services', 'DELETE', [...team, uuid]),
  op('list pending invitations', 'services', 'GET', [...team, 'invitations']),
  op('revoke invitation', 'services', 'DELETE', [...team, 'invitations', uuid]),
  op('create inbox', 'services', 'POST', [...inboxes]),
  op('list inboxes', 'services', 'GET', [...inboxes]),
  op('rename inbox', 'services', 'PATCH', [...inboxes, uuid]),
  op('remove inbox', 'services', 'DELETE', [...inboxes, uuid]),
  op('post inbound message', 'services', 'POST', [...inboxes, uuid, 'messages']),
  op('read session', 'services', 'GET', [...session]),
  op('list session messages', 'services', 'GET', [...session, 'messages']),
  op('reply in session', 'services', 'POST', [...session, 'messages']),
  // The transitions without a target read no body.
  op('take session', 'services', 'POST', [...session, 'take'], { body: false }),
  op('assign session', 'services', 'POST', [...session, 'assign']),
  op('transfer session', 'services', 'POST', [...session, 'transfer']),
  op('join session', 'services', 'POST', [...session, 'join'], { body: false }),
  op('close session', 'services', 'POST', [...session, 'close'], { body: false }),
  op('mark session read', 'services', 'POST', [...session, 'read'], { body: false }),
  op('report delivery status', 'services', 'PUT', ['v1', 'tenants', tenant, 'messages', uuid, 'delivery-status']),
];
