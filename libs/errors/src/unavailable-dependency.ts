/**
 * Whether an error means that PostgreSQL or Redis could not be reached (down,
 * restarting, refusing connections), as opposed to a fault in our code or a
 * bad query. Such an error is answered 503 5903, "try again", rather than
 * 500 5999: nothing was done, and retrying once the store is back succeeds.
 *
 * Recognised by name, message and SQLSTATE rather than by class, so this
 * library stays free of the drivers.
 */
export function isUnavailableDependency(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, message, code } = error as { name?: unknown; message?: unknown; code?: unknown };
  if (typeof name === 'string' && REDIS_UNAVAILABLE_NAMES.has(name)) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  const driverError = (error as { driverError?: unknown }).driverError;
  return driverError !== undefined && driverError !== error && isUnavailableDependency(driverError);
}

/** ioredis gives up on a command after `maxRetriesPerRequest` reconnection attempts. */
const REDIS_UNAVAILABLE_NAMES = new Set(['MaxRetriesPerRequestError']);

const UNAVAILABLE_MESSAGES = [
  // ioredis, on a closed or not-yet-connected client
  /^Connection is closed\.?$/,
  /^Stream isn't writeable/,
  // node-postgres and its pool
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
];

const UNAVAILABLE_CODES = new Set([
  // socket errors, from either driver
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  // PostgreSQL: connection exceptions, too many connections, shutting down or starting up
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
  '57P01',
  '57P02',
  '57P03',
]);
