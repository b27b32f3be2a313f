/**
 * The error catalog: every error the platform can answer with, as data.
 *
 * Codes 1000-1847, 5002, 5016 and 5999 are the published API's. Codes this codebase
 * adds are numbered in the 19xx (client) and 59xx (server) ranges, clear of them,
 * and listed in docs/errors.md. No module invents a code or a message inline.
 */
export const ERROR_CATALOG = {
  TenantNotConnected: { code: 1000, name: 'TenantNotConnectedError', status: 422, message: 'This tenant is not connected to the plugin.' },
  MissingTenantID: { code: 1001, name: 'MissingTenantIDError', status: 400, message: 'tenantID is required.' },
  RequestValidation: { code: 1002, name: 'RequestValidationError', status: 400, message: 'Invalid request data.' },
  Unauthorized: { code: 1003, name: 'UnauthorizedError', status: 401, message: 'You are not authorized to perform this request.' },
  Forbidden: { code: 1004, name: 'ForbiddenError', status: 403, message: 'You do not have access to this resource.' },
  PluginConnectionNotFound: { code: 1054, name: 'PluginConnectionNotFoundError', status: 404, message: 'Plugin connection not found.' },
  CampaignModelNotFound: { code: 1058, name: 'CampaignModelNotFoundError', status: 404, message: 'Campaign model not found.' },
  SessionNotFound: { code: 1060, name: 'SessionNotFoundError', status: 404, message: 'Session not found.' },
  TenantNotFound: { code: 1062, name: 'TenantNotFoundError', status: 404, message: 'Tenant not found.' },
  CampaignModelNameUnavailable: {
    code: 1066,
    name: 'CampaignModelNameUnavailableError',
    status: 409,
    message: 'Could not derive an available campaignModelName for this channel.',
  },
  TooManyRequests: { code: 1071, name: 'TooManyRequestsError', status: 429, message: 'Too many requests. Try again later.' },
  HelpdeskNotFound: { code: 1107, name: 'HelpdeskNotFoundError', status: 404, message: 'No help center answers on this address.' },
  DomainRefreshThrottled: {
    code: 1121,
    name: 'DomainRefreshThrottledError',
    status: 429,
    message: 'This domain was verified a moment ago. Wait a few seconds and try again.',
  },
  DomainProvisioning: {
    code: 1122,
    name: 'DomainProvisioningError',
    status: 502,
    message: 'The domain provisioning provider failed to answer. Try again in a moment.',
  },
  OperatorEmailDisposable: { code: 1847, name: 'OperatorEmailDisposableError', status: 422, message: 'Disposable e-mail addresses are not accepted.' },
  BadGateway: { code: 5002, name: 'BadGatewayError', status: 502, message: 'External service returned an invalid response.' },
  EmailVerificationUnavailable: {
    code: 5016,
    name: 'EmailVerificationUnavailableError',
    status: 503,
    message: 'E-mail verification is temporarily unavailable. Try again.',
  },
  Unknown: { code: 5999, name: 'UnknownError', status: 500, message: 'For some unknown reason your request has not succeeded.' },

  // Codes added by this codebase (docs/errors.md).
  MalformedRequest: { code: 1900, name: 'MalformedRequestError', status: 400, message: 'The request is not well-formed HTTP.' },
  MalformedUrl: { code: 1901, name: 'MalformedUrlError', status: 400, message: 'The request path is not validly percent-encoded UTF-8.' },
  RouteNotFound: { code: 1904, name: 'RouteNotFoundError', status: 404, message: 'No operation answers on this method and path.' },
  MethodNotAllowed: { code: 1905, name: 'MethodNotAllowedError', status: 405, message: 'This path does not answer this method.' },
  RequestTimeout: { code: 1908, name: 'RequestTimeoutError', status: 408, message: 'The request was not received in time.' },
  UrlTooLong: { code: 1914, name: 'UrlTooLongError', status: 414, message: 'A segment of the request path is longer than this API accepts.' },
  HeaderFieldsTooLarge: {
    code: 1931,
    name: 'HeaderFieldsTooLargeError',
    status: 431,
    message: 'The request line and headers are larger than this API accepts.',
  },
  PluginAlreadyInstalled: { code: 1950, name: 'PluginAlreadyInstalledError', status: 409, message: 'This plugin is already installed on this tenant.' },
  TenantBillingNotConfigured: {
    code: 1951,
    name: 'TenantBillingNotConfiguredError',
    status: 422,
    message: 'This tenant has no billing subscription, which paid plugins need.',
  },
  PayloadTooLarge: { code: 1913, name: 'PayloadTooLargeError', status: 413, message: 'The request body is larger than this API accepts.' },
  WebhookEndpointNotFound: { code: 1960, name: 'WebhookEndpointNotFoundError', status: 404, message: 'Webhook endpoint not found.' },
  WebhookEndpointLimitReached: {
    code: 1961,
    name: 'WebhookEndpointLimitReachedError',
    status: 409,
    message: 'This tenant has as many webhook endpoints as it may have. Delete one before adding another.',
  },
  WebhookDeliveryNotFound: { code: 1966, name: 'WebhookDeliveryNotFoundError', status: 404, message: 'Webhook delivery not found.' },
  WebhookDeliveryAlreadySucceeded: {
    code: 1967,
    name: 'WebhookDeliveryAlreadySucceededError',
    status: 409,
    message: 'This webhook delivery already succeeded. Send a test event to try the endpoint again.',
  },
  WebhookEndpointDisabled: {
    code: 1968,
    name: 'WebhookEndpointDisabledError',
    status: 409,
    message: 'This webhook endpoint is disabled. Enable it before sending to it.',
  },
  DomainHostnameTaken: {
    code: 1970,
    name: 'DomainHostnameTakenError',
    status: 409,
    message: 'This hostname is already registered to a help center.',
  },
  DomainHostnameRefused: {
    code: 1971,
    name: 'DomainHostnameRefusedError',
    status: 422,
    message: 'The domain provisioning provider does not accept this hostname.',
  },
  DomainLimitReached: {
    code: 1972,
    name: 'DomainLimitReachedError',
    status: 409,
    message: 'This help center has as many domains as it may have. Remove one before adding another.',
  },
  IdempotencyKeyReused: {
    code: 1980,
    name: 'IdempotencyKeyReusedError',
    status: 422,
    message: 'This Idempotency-Key was already used with other parameters. Use a new key for a new request.',
  },
  IdempotencyRequestInProgress: {
    code: 1981,
    name: 'IdempotencyRequestInProgressError',
    status: 409,
    message: 'A request with this Idempotency-Key is still in progress. Try again in a moment.',
  },
  MemberNotFound: { code: 1990, name: 'MemberNotFoundError', status: 404, message: 'This operator is not a member of this tenant.' },
  LastOwner: {
    code: 1991,
    name: 'LastOwnerError',
    status: 409,
    message: 'A tenant keeps at least one owner. Make another member an owner first.',
  },
  InvitationNotFound: { code: 1992, name: 'InvitationNotFoundError', status: 404, message: 'This tenant has no such pending invitation.' },
  InboxNotFound: { code: 1940, name: 'InboxNotFoundError', status: 404, message: 'Inbox not found.' },
  InboxHasOpenSessions: {
    code: 1941,
    name: 'InboxHasOpenSessionsError',
    status: 409,
    message: 'This inbox has open sessions. Close them before removing it.',
  },
  SessionClosed: { code: 1942, name: 'SessionClosedError', status: 409, message: 'This session is closed.' },
  SessionAlreadyAssigned: {
    code: 1943,
    name: 'SessionAlreadyAssignedError',
    status: 409,
    message: 'This session is already assigned. Transfer it instead.',
  },
  SessionNotAssigned: {
    code: 1944,
    name: 'SessionNotAssignedError',
    status: 409,
    message: 'This session is queued, not assigned. Take or assign it instead.',
  },
  AlreadyInSession: { code: 1945, name: 'AlreadyInSessionError', status: 409, message: 'This operator already takes part in this session.' },
  MessageNotFound: { code: 1946, name: 'MessageNotFoundError', status: 404, message: 'Message not found.' },
  MessageStatusRefused: {
    code: 1947,
    name: 'MessageStatusRefusedError',
    status: 409,
    message: "A message's delivery status only moves forward (pending, sent, delivered, read), or to failed before delivery.",
  },
  MessageContentTooLong: {
    code: 1948,
    name: 'MessageContentTooLongError',
    status: 422,
    message: 'The message content is longer than this API accepts.',
  },
  OperatorAtCapacity: {
    code: 1949,
    name: 'OperatorAtCapacityError',
    status: 409,
    message: "This operator has as many open sessions as the inbox's routing policy allows. Close or transfer one first.",
  },
  InternalServiceTimeout: {
    code: 5904,
    name: 'InternalServiceTimeoutError',
    status: 504,
    message: 'An internal service did not answer in time. Try again.',
  },
  InternalServiceUnavailable: {
    code: 5903,
    name: 'InternalServiceUnavailableError',
    status: 503,
    message: 'An internal service is unavailable. Try again.',
  },
} as const satisfies Record<string, ErrorDefinition>;

export interface ErrorDefinition {
  readonly code: number;
  readonly name: string;
  readonly status: number;
  readonly message: string;
}

export type ErrorKey = keyof typeof ERROR_CATALOG;

const byCode = new Map<number, ErrorKey>(
  (Object.keys(ERROR_CATALOG) as ErrorKey[]).map((key) => [ERROR_CATALOG[key].code, key]),
);

/** The catalog key of a numeric code, e.g. when an error crosses the transport. */
export function errorKeyOfCode(code: number): ErrorKey | undefined {
  return byCode.get(code);
}
