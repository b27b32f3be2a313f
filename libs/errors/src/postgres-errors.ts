import { AppException } from './app-exception';
import { ErrorKey } from './catalog';

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const QUERY_CANCELED = '57014';

interface PostgresDriverError {
  code?: string;
  constraint?: string;
}

function driverErrorOf(error: unknown): PostgresDriverError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  // TypeORM wraps the driver error in QueryFailedError.driverError.
  const candidate = (error as { driverError?: unknown }).driverError ?? error;
  return typeof candidate === 'object' && candidate !== null ? (candidate as PostgresDriverError) : undefined;
}

/** The name of the unique index violated by `error`, or undefined when it is not a unique violation. */
export function violatedUniqueConstraint(error: unknown): string | undefined {
  const driverError = driverErrorOf(error);
  return driverError?.code === UNIQUE_VIOLATION ? driverError.constraint ?? '' : undefined;
}

/** Whether `error` is a statement cancelled by PostgreSQL, as `statement_timeout` cancels one. */
export function isQueryCanceled(error: unknown): boolean {
  return driverErrorOf(error)?.code === QUERY_CANCELED;
}

/**
 * Maps a Postgres unique violation to the domain error of the place it occurs.
 * `byConstraint` names, per unique index, the catalog error it means there;
 * any other error is rethrown untouched.
 */
export function rethrowUniqueViolation(error: unknown, byConstraint: Record<string, ErrorKey>): never {
  const constraint = violatedUniqueConstraint(error);
  if (constraint !== undefined && constraint in byConstraint) {
    throw new AppException(byConstraint[constraint], { cause: error });
  }
  throw error;
}

/**
 * Maps a Postgres foreign-key violation to the domain error of the place it
 * occurs (a row whose parent was deleted by a concurrent transaction after
 * the caller's check): `byConstraint` names, per foreign key, the catalog
 * error it means there; any other error is rethrown untouched.
 */
export function rethrowForeignKeyViolation(error: unknown, byConstraint: Record<string, ErrorKey>): never {
  const driverError = driverErrorOf(error);
  const constraint = driverError?.code === FOREIGN_KEY_VIOLATION ? driverError.constraint : undefined;
  if (constraint !== undefined && constraint in byConstraint) {
    throw new AppException(byConstraint[constraint], { cause: error });
  }
  throw error;
}
