/** Every failure the client reports is one of these (or the caller's own AbortSignal reason). */
export class PlantStoreError extends Error {
  override name = 'PlantStoreError';
}

/**
 * The server answered with its Error body (docs/errors.md): `code` is the stable application
 * code (40901, 50301, ...) whose first three digits are `status`.
 */
export class PlantStoreApiError extends PlantStoreError {
  override name = 'PlantStoreApiError';

  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    /** Seconds the server asked to wait (its Retry-After header), when it said. */
    readonly retryAfter: number | undefined,
  ) {
    super(message);
  }
}

/** The answer was not the API's: no Error body (a proxy page, say) or a malformed Plant. */
export class PlantStoreUnexpectedResponseError extends PlantStoreError {
  override name = 'PlantStoreUnexpectedResponseError';

  constructor(
    readonly status: number,
    /** The start of the body, for the log. */
    readonly body: string,
  ) {
    super(`unexpected response ${status} from the Plant Store API: ${body || '(empty body)'}`);
  }
}

/** No answer: connection refused or cut, or an attempt timed out; `cause` is the last failure. */
export class PlantStoreNetworkError extends PlantStoreError {
  override name = 'PlantStoreNetworkError';
}

/** The caller's deadline passed before an answer that ends the call; `cause` is the last failure, if any. */
export class PlantStoreDeadlineError extends PlantStoreError {
  override name = 'PlantStoreDeadlineError';
}
