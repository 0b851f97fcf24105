import { StorageUnavailableError } from '@plantstore/domain';

// SQLite result codes and PostgreSQL SQLSTATE classes that mean "the store cannot serve now",
// as opposed to a bug in a statement. Those become 503; anything else stays an internal error.
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|READONLY|CANTOPEN|FULL|PROTOCOL|NOTADB|CORRUPT)/;
const PG_UNAVAILABLE_CLASSES = ['08', '53', '57', '58'];
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'EAI_AGAIN',
]);
// "not queryable": pg's answer on a connection already cut (postgres-client.ts cuts idle ones
// when another goes silent), for a request that had taken it from the pool just before.
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|is not queryable|database is closed|Driver not Connected|pool is (ended|draining)|The database connection is not open/i;

export function isStorageUnavailable(error: unknown): boolean {
  if (error instanceof StorageUnavailableError) return true;
  // Shape, not instanceof: errors may come from another realm (jest's VM, worker threads).
  for (let e: unknown = error, depth = 0; typeof e === 'object' && e !== null && depth < 4; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (SQLITE_UNAVAILABLE.test(code) || NETWORK_CODES.has(code)) return true;
      if (code.length === 5 && PG_UNAVAILABLE_CLASSES.includes(code.slice(0, 2))) return true;
    }
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    e = (e as { driverError?: unknown; cause?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Infrastructure outages become the domain's StorageUnavailableError; others pass unchanged. */
export function asStorageError(error: unknown): unknown {
  if (error instanceof StorageUnavailableError || !isStorageUnavailable(error)) return error;
  return new StorageUnavailableError(undefined, { cause: error });
}

export function translateStorageError(error: unknown): never {
  throw asStorageError(error);
}
