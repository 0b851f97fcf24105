import { StorageUnavailableError, type StorageUnavailableReason } from '@plantstore/domain';

// SQLite result codes and PostgreSQL SQLSTATEs that mean "the store cannot serve now", as
// opposed to a bug in a statement, each with the reason an operator is told. Those become 503;
// anything else stays an internal error. First match wins: specific codes before classes.
const SQLITE_REASONS: ReadonlyArray<readonly [RegExp, StorageUnavailableReason]> = [
  [/^SQLITE_FULL/, 'disk full'],
  [/^SQLITE_(BUSY|LOCKED)/, 'lock timeout'],
  [/^SQLITE_(IOERR|PROTOCOL)/, 'disk failing'],
  [/^SQLITE_(READONLY|CANTOPEN|NOTADB|CORRUPT)/, 'database file unusable'],
];
const PG_REASONS: ReadonlyArray<readonly [RegExp, StorageUnavailableReason]> = [
  [/^53100$/, 'disk full'],
  [/^55P03$/, 'lock timeout'],
  [/^57014$/, 'database timeout'],
  [/^(08|53|57)/, 'database unreachable'],
  [/^58/, 'disk failing'],
];
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
const MESSAGE_REASONS: ReadonlyArray<readonly [RegExp, StorageUnavailableReason]> = [
  [/Query read timeout/i, 'database timeout'],
  [
    /database is closed|Driver not Connected|pool is (ended|draining)|The database connection is not open/i,
    'database closed',
  ],
  [
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|is not queryable/i,
    'database unreachable',
  ],
];

/**
 * The one translation of a driver's error: an outage (the store cannot serve now) becomes the
 * domain's StorageUnavailableError with the reason an operator is told, which HTTP answers as
 * 503 50301; anything else (a bug in a statement, a refused row) is returned unchanged.
 */
export function asStorageError(error: unknown): unknown {
  if (error instanceof StorageUnavailableError) return error;
  const reason = outageReason(error);
  return reason === undefined ? error : new StorageUnavailableError(undefined, { cause: error, reason });
}

function outageReason(error: unknown): StorageUnavailableReason | undefined {
  // Shape, not instanceof: errors may come from another realm (jest's VM, worker threads), and
  // TypeORM wraps the driver's error (driverError), pg its cause.
  for (let e: unknown = error, depth = 0; typeof e === 'object' && e !== null && depth < 4; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      const reason = reasonOfCode(code);
      if (reason !== undefined) return reason;
    }
    if (typeof message === 'string') {
      const reason = MESSAGE_REASONS.find(([pattern]) => pattern.test(message))?.[1];
      if (reason !== undefined) return reason;
    }
    e = (e as { driverError?: unknown; cause?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function reasonOfCode(code: string): StorageUnavailableReason | undefined {
  if (NETWORK_CODES.has(code)) return 'database unreachable';
  // A SQLite result code (SQLITE_…), else a PostgreSQL SQLSTATE (five characters).
  const table = code.startsWith('SQLITE_') ? SQLITE_REASONS : code.length === 5 ? PG_REASONS : [];
  return table.find(([pattern]) => pattern.test(code))?.[1];
}
