import { isIP } from 'node:net';
import { AppException } from '@platform/errors';
import { isPublicAddress, OutboundPolicy } from '@platform/http-outbound';
import { ValidateBy } from 'class-validator';

/** Longest URL an endpoint may have, in characters: far above real receivers', short of abuse. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

export const WEBHOOK_URL_SHAPE = `absolute http or https URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters, without user name or password`;
export const WEBHOOK_URL_HTTPS_ONLY = 'https URL (plain http is refused in production)';
export const WEBHOOK_URL_PUBLIC_ADDRESS =
  'URL whose host is a public address or a host name (loopback, private, link-local and other special ranges are refused)';

/**
 * The shape rule, the same in every deployment: what the request validation
 * refuses (400 1002 on `url`). Credentials in the URL are refused because
 * they would be sent with every delivery and shown in every answer; the
 * signature is what proves a delivery's origin.
 */
export function isWellFormedWebhookUrl(value: unknown): value is string {
  if (typeof value !== 'string' || [...value].length > MAX_WEBHOOK_URL_LENGTH) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && url.username === '' && url.password === '';
}

export function IsWebhookUrl(): PropertyDecorator {
  return ValidateBy({ name: 'isWebhookUrl', validator: { validate: isWellFormedWebhookUrl } }, { message: WEBHOOK_URL_SHAPE });
}

/** The address a URL's host names literally (IPv6 without its brackets), or undefined for a host name. */
function literalAddressOf(url: URL): string | undefined {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : undefined;
}

/** `localhost` and its subdomains are loopback by definition (RFC 6761), whatever a resolver says. */
function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * The destination rule, which depends on the deployment (the outbound
 * policy, docs/security.md#outbound-calls): what it refuses, as the
 * `allowed` text of a 400 1002 on `url`, or undefined when the URL may be
 * saved. It judges what the URL itself says: https in production, a literal
 * address that must be public unless OUTBOUND_ALLOW allows it, and
 * `localhost`. A host name is resolved and checked again at every delivery
 * by the outbound dispatcher, since what it resolves to may change.
 */
export function webhookUrlRefusal(text: string, policy: Pick<OutboundPolicy, 'allowList' | 'httpsOnly'>): string | undefined {
  const url = new URL(text);
  if (policy.httpsOnly && url.protocol !== 'https:') return WEBHOOK_URL_HTTPS_ONLY;
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const address = literalAddressOf(url);
  if (address !== undefined) {
    return isPublicAddress(address) || policy.allowList.allowsAddress(address, port) ? undefined : WEBHOOK_URL_PUBLIC_ADDRESS;
  }
  if (isLoopbackName(url.hostname) && !policy.allowList.allowsHost(url.hostname, port)) return WEBHOOK_URL_PUBLIC_ADDRESS;
  return undefined;
}

/** 400 1002 on `url` when the outbound policy does not let the URL be saved (see webhookUrlRefusal). */
export function refuseUnallowedDestination(url: string, policy: Pick<OutboundPolicy, 'allowList' | 'httpsOnly'>): void {
  const refusal = webhookUrlRefusal(url, policy);
  if (refusal) throw AppException.validation([{ field: 'url', received: url, allowed: refusal }]);
}
