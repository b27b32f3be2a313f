import { Logger } from '@nestjs/common';
import { AppException } from '@platform/errors';
import type Cloudflare from 'cloudflare';
import { CustomHostnameProvider, ProvisionedHostname, RegistrationOutcome } from './custom-hostname.provider';

export interface CloudflareSettings {
  /** Includes `/client/v4`; the SDK appends `/zones/...`. */
  baseUrl: string;
  apiToken: string;
  zoneID: string;
  timeoutMs: number;
  /** The SDK retries timeouts, 408, 409, 429 and 5xx; this many times, on purpose. */
  maxRetries: number;
}

/** Cloudflare's error code for a custom hostname it does not have. */
const NOT_FOUND_CODE = 1436;

interface RawCustomHostname {
  id?: unknown;
  hostname?: unknown;
  status?: unknown;
  verification_errors?: unknown;
  ssl?: { status?: unknown; validation_errors?: unknown } | null;
}

type CloudflareSdk = typeof import('cloudflare');
let sdk: CloudflareSdk | undefined;

/**
 * The SDK, loaded on the first provider call: about 1,200 modules (3.4 MB)
 * that cost start-up time and heap on every replica, while only domain
 * requests and the pending-domain sweep use them.
 */
function cloudflareSdk(): CloudflareSdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously, to keep it off the idle heap and start-up
  sdk ??= require('cloudflare') as CloudflareSdk;
  return sdk;
}

/** The SDK's error classes; an error can only come from the SDK once it is loaded. */
const isApiError = (error: unknown): error is InstanceType<CloudflareSdk['APIError']> => sdk !== undefined && error instanceof sdk.APIError;
const isConnectionError = (error: unknown): boolean => sdk !== undefined && error instanceof sdk.APIConnectionError;

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

/**
 * Custom hostnames through the official `cloudflare` SDK, against any base URL
 * (the real API, the provider sandbox or a test stub).
 *
 * The SDK unwraps `result` without looking at `success`, so every answer is
 * checked here: an answer without a usable result is a provider failure, never
 * a state. Retries: the SDK's own (timeouts, 408/409/429/5xx) up to
 * `maxRetries`. A create retried after a lost answer meets "duplicate", which
 * the caller resolves by looking the hostname up, so retrying it is safe.
 */
export class CloudflareCustomHostnameProvider extends CustomHostnameProvider {
  private readonly logger = new Logger(CloudflareCustomHostnameProvider.name);
  private sdkClient: Cloudflare | undefined;

  constructor(private readonly settings: CloudflareSettings) {
    super();
  }

  private get client(): Cloudflare {
    this.sdkClient ??= new (cloudflareSdk().default)({
      apiToken: this.settings.apiToken,
      baseURL: this.settings.baseUrl,
      timeout: this.settings.timeoutMs,
      maxRetries: this.settings.maxRetries,
    });
    return this.sdkClient;
  }

  async register(hostname: string): Promise<RegistrationOutcome> {
    try {
      const created = await this.client.customHostnames.create({
        zone_id: this.settings.zoneID,
        hostname,
        ssl: { method: 'http', type: 'dv' },
      });
      return { outcome: 'registered', hostname: this.parse(created, 'create') };
    } catch (error) {
      if (isApiError(error) && error.status === 409) return { outcome: 'duplicate' };
      if (isApiError(error) && (error.status === 400 || error.status === 422)) {
        this.logger.warn({ err: error, hostname }, 'provider refused a custom hostname');
        return { outcome: 'refused' };
      }
      throw this.failure(error, 'create');
    }
  }

  async find(providerID: string): Promise<ProvisionedHostname | undefined> {
    try {
      return this.parse(await this.client.customHostnames.get(providerID, { zone_id: this.settings.zoneID }), 'get');
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw this.failure(error, 'get');
    }
  }

  async findByHostname(hostname: string): Promise<ProvisionedHostname | undefined> {
    try {
      const page = await this.client.customHostnames.list({ zone_id: this.settings.zoneID, hostname: { exact: hostname } });
      if (!Array.isArray(page.result)) throw new Error('list answer without a result array');
      const match = page.result.find((entry) => entry.hostname === hostname);
      return match && this.parse(match, 'list');
    } catch (error) {
      throw this.failure(error, 'list');
    }
  }

  async remove(providerID: string): Promise<void> {
    try {
      const answer = (await this.client.customHostnames.delete(providerID, { zone_id: this.settings.zoneID })) as unknown;
      // The real API answers `{id}`; an envelope must say success.
      const body = answer as { id?: unknown; success?: unknown };
      if (typeof body !== 'object' || body === null || (body.success === undefined ? body.id !== providerID : body.success !== true)) {
        throw new Error('delete answer is neither {id} nor a successful envelope');
      }
    } catch (error) {
      if (isNotFound(error)) return; // already gone at the provider: the deletion is done
      throw this.failure(error, 'delete');
    }
  }

  private parse(raw: unknown, operation: string): ProvisionedHostname {
    const value = raw as RawCustomHostname | null | undefined;
    if (!value || typeof value.id !== 'string' || typeof value.hostname !== 'string' || typeof value.status !== 'string') {
      throw new Error(`${operation} answer without a custom hostname`);
    }
    return {
      id: value.id,
      hostname: value.hostname,
      status: value.status,
      sslStatus: typeof value.ssl?.status === 'string' ? value.ssl.status : 'initializing',
      verificationErrors: strings(value.verification_errors),
      sslValidationErrors: Array.isArray(value.ssl?.validation_errors)
        ? (value.ssl.validation_errors as { message?: unknown }[]).map((entry) => entry?.message).filter((message): message is string => typeof message === 'string')
        : [],
    };
  }

  private failure(error: unknown, operation: string): AppException {
    if (error instanceof AppException) return error;
    const kind = isConnectionError(error) ? 'unreachable or timed out' : isApiError(error) ? `answered ${error.status}` : 'answered something unusable';
    this.logger.warn({ err: error, operation }, `domain provisioning provider ${kind}`);
    return new AppException('DomainProvisioning', { cause: error });
  }
}

function isNotFound(error: unknown): boolean {
  if (!isApiError(error) || error.status !== 404) return false;
  // A 404 of a wrong base URL or zone is a misconfiguration, not a missing hostname.
  return error.errors.some((entry) => entry?.code === NOT_FOUND_CODE);
}
