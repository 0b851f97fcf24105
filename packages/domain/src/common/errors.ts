/** Base of every failure the domain reports; `code` is stable and transport-neutral. */
export abstract class DomainError extends Error {
  abstract readonly code: string;

  constructor(message?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * Why a store is unavailable, for the operator: a fixed phrase that names the fault, never the
 * driver's own text (which may quote SQL, a path or a connection string).
 */
export type StorageUnavailableReason =
  | 'disk full'
  | 'disk failing'
  | 'lock timeout'
  | 'database timeout'
  | 'database unreachable'
  | 'database closed'
  | 'database file unusable';

/**
 * A port could not reach its backing store; retrying later may succeed. Port implementations
 * throw it (with the driver's error as `cause`, and the `reason` they recognised) and the use
 * cases let it through unchanged.
 */
export class StorageUnavailableError extends DomainError {
  readonly code = 'STORAGE_UNAVAILABLE';
  /** Undefined when the port could not tell. */
  readonly reason: StorageUnavailableReason | undefined;

  constructor(
    message = 'the plant store is temporarily unavailable',
    options?: { cause?: unknown; reason?: StorageUnavailableReason | undefined },
  ) {
    super(message, options);
    this.reason = options?.reason;
  }
}
