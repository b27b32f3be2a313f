/**
 * Test doubles any spec may import, whatever its project: no workspace
 * dependency, so the specs of the libraries libs/testing builds on (auth,
 * audit, idempotency, transport) use them without a dependency cycle. Code
 * outside specs and test support may not import it (eslint.config.mjs).
 */
export { CapturedLogs, capturedLogs, LoggedLine } from './captured-logs';
export { fake } from './fake';
export { httpContext, rpcHost } from './nest-contexts';
