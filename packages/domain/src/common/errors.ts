/** Base of every failure the domain reports; `code` is stable and transport-neutral. */
export abstract class DomainError extends Error {
  abstract readonly code: string;

  constructor(message?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * A port could not reach its backing store; retrying later may succeed. Port implementations
 * throw it (with the driver's error as `cause`) and the use cases let it through unchanged.
 */
export class StorageUnavailableError extends DomainError {
  readonly code = 'STORAGE_UNAVAILABLE';
  constructor(message = 'the plant store is temporarily unavailable', options?: { cause?: unknown }) {
    super(message, options);
  }
}
