/**
 * The domain provisioning provider as the help-center domains need it: custom
 * hostnames of one SaaS zone (Cloudflare for SaaS style: docs/external-providers.md, Custom hostnames).
 */

/** What the provider says about a custom hostname. */
export interface ProvisionedHostname {
  /** `domainProviderID`. */
  id: string;
  hostname: string;
  /** The hostname's status: `active`, `pending`, `moved`, `blocked`, ... */
  status: string;
  /** The certificate's status: `initializing`, `pending_validation`, ..., `active`, `*_timed_out`, ... */
  sslStatus: string;
  /** Why the hostname is not verified yet, as the provider words it (e.g. the CNAME is missing). */
  verificationErrors: string[];
  /** Why certificate validation failed, as the provider words it. */
  sslValidationErrors: string[];
}

export type RegistrationOutcome =
  | { outcome: 'registered'; hostname: ProvisionedHostname }
  /** The provider refuses the name itself (reserved or prohibited). */
  | { outcome: 'refused' }
  /** The zone already holds this hostname. */
  | { outcome: 'duplicate' };

/**
 * Implemented by the Cloudflare adapter. Every method throws
 * `AppException('DomainProvisioning')` (502 1122) when the provider fails,
 * times out or answers something that is not its API.
 */
export abstract class CustomHostnameProvider {
  abstract register(hostname: string): Promise<RegistrationOutcome>;

  /** The hostname by its provider id; undefined when the provider no longer has it. */
  abstract find(providerID: string): Promise<ProvisionedHostname | undefined>;

  /** The zone's custom hostname with exactly this name, if any. */
  abstract findByHostname(hostname: string): Promise<ProvisionedHostname | undefined>;

  /** Deletes the hostname; a hostname the provider no longer has counts as deleted. */
  abstract remove(providerID: string): Promise<void>;
}
