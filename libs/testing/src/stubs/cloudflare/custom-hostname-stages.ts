/**
 * The life of a custom hostname at a Cloudflare-for-SaaS style provider, as
 * the stub plays it: the hostname's `status`, its certificate's `ssl.status`
 * and the errors the provider reports at each stage (docs/external-providers.md, Custom hostnames).
 */
export interface StageState {
  status: string;
  sslStatus: string;
  verificationErrors: string[];
  sslValidationErrors: string[];
}

export const CUSTOM_HOSTNAME_STAGES = {
  /** Just created: the customer's CNAME is not in place yet. */
  cname_missing: {
    status: 'pending',
    sslStatus: 'initializing',
    verificationErrors: ['custom hostname does not CNAME to this zone.'],
    sslValidationErrors: [],
  },
  /** The CNAME resolves; the provider has not finished verifying ownership of the hostname. */
  ownership_pending: { status: 'pending', sslStatus: 'pending_validation', verificationErrors: [], sslValidationErrors: [] },
  /** Hostname verified; domain control validation of the certificate still running. */
  certificate_validation: { status: 'active', sslStatus: 'pending_validation', verificationErrors: [], sslValidationErrors: [] },
  certificate_issuance: { status: 'active', sslStatus: 'pending_issuance', verificationErrors: [], sslValidationErrors: [] },
  certificate_deployment: { status: 'active', sslStatus: 'pending_deployment', verificationErrors: [], sslValidationErrors: [] },
  /** Traffic flows: both the hostname and its certificate are active. */
  active: { status: 'active', sslStatus: 'active', verificationErrors: [], sslValidationErrors: [] },
  validation_timed_out: {
    status: 'pending',
    sslStatus: 'validation_timed_out',
    verificationErrors: [],
    sslValidationErrors: ['Validation timed out: the hostname did not point at the zone in time.'],
  },
  issuance_timed_out: { status: 'active', sslStatus: 'issuance_timed_out', verificationErrors: [], sslValidationErrors: [] },
  /** Was active; the customer's CNAME no longer points at us. */
  moved: { status: 'moved', sslStatus: 'active', verificationErrors: ['custom hostname does not CNAME to this zone.'], sslValidationErrors: [] },
  blocked: { status: 'blocked', sslStatus: 'initializing', verificationErrors: [], sslValidationErrors: [] },
  certificate_expired: { status: 'active', sslStatus: 'expired', verificationErrors: [], sslValidationErrors: [] },
} as const satisfies Record<string, StageState>;

export type CustomHostnameStage = keyof typeof CUSTOM_HOSTNAME_STAGES;

/** The usual path from creation to traffic; `advance` moves one step along it. */
export const HAPPY_PATH: readonly CustomHostnameStage[] = [
  'cname_missing',
  'ownership_pending',
  'certificate_validation',
  'certificate_issuance',
  'certificate_deployment',
  'active',
];

export function nextStage(stage: CustomHostnameStage): CustomHostnameStage {
  const index = HAPPY_PATH.indexOf(stage);
  // Off the happy path (timeouts, moved, blocked) a hostname stays where it is until told otherwise.
  return index === -1 ? stage : HAPPY_PATH[Math.min(index + 1, HAPPY_PATH.length - 1)];
}
