import { isSecretField, REDACTED } from '@platform/errors';

/**
 * A request URL as it may be logged: the value of each query parameter whose
 * name says it holds a secret (the one rule of `isSecretField`, e.g. the
 * webhook handshake's `hub.verify_token`) is replaced by `[redacted]`; the
 * rest stays exactly as sent. Query strings are split by hand, not parsed and
 * re-serialized, so that a log line shows the other parameters byte for byte.
 */
export function loggedUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const pairs = url.slice(queryStart + 1).split('&');
  let changed = false;
  const logged = pairs.map((pair) => {
    const separator = pair.indexOf('=');
    const rawName = separator === -1 ? pair : pair.slice(0, separator);
    if (!isSecretField(decodedName(rawName))) return pair;
    changed = true;
    return `${rawName}=${REDACTED}`;
  });
  return changed ? `${url.slice(0, queryStart)}?${logged.join('&')}` : url;
}

/** A parameter name as the query parser reads it (`+` is a space); as sent when it is not valid percent-encoding. */
function decodedName(rawName: string): string {
  try {
    return decodeURIComponent(rawName.replace(/\+/g, ' '));
  } catch {
    return rawName;
  }
}
