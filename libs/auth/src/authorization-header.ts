import { AppException } from '@platform/errors';
import { canonicalUuid, isUuid } from '@platform/http-common';

/** A credential as read from the header, before it is verified. */
export type PresentedCredential =
  | { profile: 'operator'; jwt: string }
  | { profile: 'plugin' | 'pluginConnection'; id: string; secret: string };

const SCHEMES: Record<string, PresentedCredential['profile']> = {
  bearer: 'operator',
  plugin: 'plugin',
  pluginconnection: 'pluginConnection',
};

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const MAX_HEADER_LENGTH = 8_192;

function unauthorized(): AppException {
  return new AppException('Unauthorized');
}

/** `base64(<uuid>:<token>)`, strictly: canonical base64, a colon, a <uuid> id and a non-empty token. */
function decodeIdAndSecret(encoded: string): { id: string; secret: string } {
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0) throw unauthorized();
  const decoded = Buffer.from(encoded, 'base64');
  // Round-trip check: Node's decoder silently skips bad input, we do not.
  if (decoded.toString('base64') !== encoded) throw unauthorized();
  const text = decoded.toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) throw unauthorized();
  const id = text.slice(0, colon);
  const secret = text.slice(colon + 1);
  if (!isUuid(id) || secret.length === 0) throw unauthorized();
  return { id: canonicalUuid(id), secret };
}

/**
 * Parses the Authorization header into one of the three profiles. Anything
 * missing, of an unknown scheme or malformed is 401 1003: the header never
 * says which part was wrong.
 */
export function parseAuthorizationHeader(header: string | string[] | undefined): PresentedCredential {
  if (typeof header !== 'string' || header.length === 0 || header.length > MAX_HEADER_LENGTH) throw unauthorized();
  const match = /^(\S+) +(\S+)$/.exec(header.trim());
  if (!match) throw unauthorized();
  const profile = SCHEMES[match[1].toLowerCase()];
  if (!profile) throw unauthorized();
  if (profile === 'operator') return { profile, jwt: match[2] };
  return { profile, ...decodeIdAndSecret(match[2]) };
}
