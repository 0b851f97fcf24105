import { statusOf } from './error-codes.js';
import type { Failure } from './failures.js';

/** A failure of the HTTP layer itself (auth, media type, body), raised with its entry of the Failures table. */
export class ApiError extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }

  get status(): number {
    return statusOf(this.failure.code);
  }
}
