/** Every failure the client reports is one of these (or the caller's own AbortSignal reason). */
export class PlantStoreError extends Error {
  override name = 'PlantStoreError';
}

/**
 * What the caller handed the client cannot be sent (a number id, an id outside int64, a limit
 * outside 1–1000, a malformed If-Match…). Thrown before any request: fix the call, not the server.
 */
export class PlantStoreInputError extends PlantStoreError {
  override name = 'PlantStoreInputError';
}

/**
 * The server answered with its Error body (the API's error catalogue): `code` is the stable
 * application code (40901, 50301, ...) whose first three digits are `status`.
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

/** 410 (code 41001): the plant was deleted. Its id is retired: it will never name a plant again. */
export class PlantStoreGoneError extends PlantStoreApiError {
  override name = 'PlantStoreGoneError';
}

/**
 * 412 (code 41201): the plant changed since the ETag sent in If-Match was read; nothing was
 * changed. Read it again, show or merge, and send again with the new ETag.
 */
export class PlantStorePreconditionFailedError extends PlantStoreApiError {
  override name = 'PlantStorePreconditionFailedError';
}

/** The answer was not the API's: no Error body (a proxy page, say), a malformed Plant, an id outside int64. */
export class PlantStoreUnexpectedResponseError extends PlantStoreError {
  override name = 'PlantStoreUnexpectedResponseError';

  constructor(
    readonly status: number,
    /** The start of the body, for the log. */
    readonly body: string,
    /** What was wrong with it, when the status alone does not say. */
    problem?: string,
  ) {
    super(
      `unexpected response ${status} from the Plant Store API${problem === undefined ? '' : ` (${problem})`}: ${body || '(empty body)'}`,
    );
  }
}

/**
 * One attempt got no answer: the connection was refused or cut, or the attempt timed out.
 * A call does not end with it: it is the `cause` of the PlantStoreDeadlineError that ends a
 * call whose attempts all failed so.
 */
export class PlantStoreNetworkError extends PlantStoreError {
  override name = 'PlantStoreNetworkError';
}

/**
 * The call's deadline came before an answer that ends it: every attempt failed in a way worth
 * repeating (no answer, 408, 429, 503), or the server asked to wait past the deadline.
 * `cause` is the last failure, if an attempt was made.
 */
export class PlantStoreDeadlineError extends PlantStoreError {
  override name = 'PlantStoreDeadlineError';

  constructor(
    message: string,
    /** Requests sent, the first included. */
    readonly attempts: number,
    /** Milliseconds from the call's start until it gave up. */
    readonly elapsedMs: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
