import { BaseConfig, parseTrustedProxies } from '@platform/config';
import type { HttpAppOptions } from './http-app';

/** The HTTP options every app takes from the variables they all read (BaseConfig). */
export function httpSettingsOf(config: BaseConfig): Pick<HttpAppOptions, 'bodyLimitBytes' | 'headersTimeoutMs' | 'requestTimeoutMs' | 'cors' | 'trustProxy' | 'serveApiDocs'> {
  return {
    serveApiDocs: config.API_DOCS === undefined ? config.NODE_ENV !== 'production' : config.API_DOCS === 'on',
    bodyLimitBytes: config.HTTP_BODY_LIMIT_BYTES,
    headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
    cors: { allowedOrigins: config.CORS_ALLOWED_ORIGINS, maxAgeSeconds: config.CORS_MAX_AGE_SECONDS },
    // Validated at boot (loadConfig), so it parses here.
    trustProxy: parseTrustedProxies(config.TRUST_PROXY) ?? false,
  };
}
