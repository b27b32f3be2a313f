import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG, errorKeyOfCode } from './catalog';

/** The published API's error codes, verbatim: they keep their published meaning (docs/errors.md). */
const SPEC_ERRORS: [number, string, number, string][] = [
  [1000, 'TenantNotConnectedError', 422, 'This tenant is not connected to the plugin.'],
  [1001, 'MissingTenantIDError', 400, 'tenantID is required.'],
  [1002, 'RequestValidationError', 400, 'Invalid request data.'],
  [1003, 'UnauthorizedError', 401, 'You are not authorized to perform this request.'],
  [1004, 'ForbiddenError', 403, 'You do not have access to this resource.'],
  [1054, 'PluginConnectionNotFoundError', 404, 'Plugin connection not found.'],
  [1058, 'CampaignModelNotFoundError', 404, 'Campaign model not found.'],
  [1060, 'SessionNotFoundError', 404, 'Session not found.'],
  [1062, 'TenantNotFoundError', 404, 'Tenant not found.'],
  [1066, 'CampaignModelNameUnavailableError', 409, 'Could not derive an available campaignModelName for this channel.'],
  [1071, 'TooManyRequestsError', 429, 'Too many requests. Try again later.'],
  [1107, 'HelpdeskNotFoundError', 404, 'No help center answers on this address.'],
  [1121, 'DomainRefreshThrottledError', 429, 'This domain was verified a moment ago. Wait a few seconds and try again.'],
  [1122, 'DomainProvisioningError', 502, 'The domain provisioning provider failed to answer. Try again in a moment.'],
  [1847, 'OperatorEmailDisposableError', 422, 'Disposable e-mail addresses are not accepted.'],
  [5002, 'BadGatewayError', 502, 'External service returned an invalid response.'],
  [5016, 'EmailVerificationUnavailableError', 503, 'E-mail verification is temporarily unavailable. Try again.'],
  [5999, 'UnknownError', 500, 'For some unknown reason your request has not succeeded.'],
];

describe('error catalog', () => {
  it.each(SPEC_ERRORS)('holds published error %i exactly', (code, name, status, message) => {
    const key = errorKeyOfCode(code);
    expect(key).toBeDefined();
    expect(ERROR_CATALOG[key!]).toEqual({ code, name, status, message });
  });

  it('gives every code and every name once', () => {
    const entries = Object.values(ERROR_CATALOG);
    expect(new Set(entries.map((entry) => entry.code)).size).toBe(entries.length);
    expect(new Set(entries.map((entry) => entry.name)).size).toBe(entries.length);
  });

  it('numbers its own codes clear of the published ones', () => {
    const specCodes = new Set(SPEC_ERRORS.map(([code]) => code));
    const own = Object.values(ERROR_CATALOG).filter((entry) => !specCodes.has(entry.code));
    for (const entry of own) expect(entry.code >= 1900 && entry.code < 2000 || entry.code >= 5900 && entry.code < 5999).toBe(true);
  });

  it('holds the webhook endpoints\' codes in their block, 1960-1964', () => {
    expect(ERROR_CATALOG.WebhookEndpointNotFound).toEqual({ code: 1960, name: 'WebhookEndpointNotFoundError', status: 404, message: 'Webhook endpoint not found.' });
    expect(ERROR_CATALOG.WebhookEndpointLimitReached).toMatchObject({ code: 1961, name: 'WebhookEndpointLimitReachedError', status: 409 });
  });

  it.each([
    [1990, 'MemberNotFound', 404],
    [1991, 'LastOwner', 409],
    [1992, 'InvitationNotFound', 404],
  ] as const)('holds team management error %i as %s (%i)', (code, key, status) => {
    expect(errorKeyOfCode(code)).toBe(key);
    expect(ERROR_CATALOG[key].status).toBe(status);
  });
});
