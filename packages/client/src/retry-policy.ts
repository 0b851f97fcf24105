/**
 * When a failed call is tried again, and after how long. Every call the client makes is safe to
 * repeat: a create with the same id and content answers 200 and writes nothing, a PUT of the
 * same content changes nothing, a repeated DELETE answers 204, and a read changes nothing. So a
 * call whose answer was lost can be sent again. How long to keep trying is the call's deadline.
 */
export interface RetryOptions {
  /** Backoff before the second attempt; it doubles with each attempt... */
  readonly baseDelayMs: number;
  /** ...up to this cap. The wait is drawn uniformly below it ("full jitter"). */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  baseDelayMs: 200,
  maxDelayMs: 5_000,
};

/** What went wrong with one attempt, as far as retrying is concerned. */
export type AttemptFailure =
  | { readonly kind: 'network' }
  | { readonly kind: 'status'; readonly status: number; readonly retryAfterMs: number | undefined };

/**
 * Statuses that say "not now": the request did not arrive in time (408), a rate limit (429),
 * the database is unavailable or the server is draining (503).
 */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 503]);

/**
 * Milliseconds to wait before the next attempt (at least what Retry-After asks), or undefined
 * when the failure ends the call. Any other status is an answer about the request itself (400,
 * 401, 403, 404, 409, 410, 412, 413, 415, ...) or an unexpected failure (500) that repeating
 * would not change.
 */
export function retryDelayMs(
  failure: AttemptFailure,
  failedAttempts: number,
  options: RetryOptions,
  random: () => number,
): number | undefined {
  if (failure.kind === 'status' && !RETRYABLE_STATUSES.has(failure.status)) return undefined;
  // A bounded exponent keeps the power finite: with a zero base, 0 × Infinity would be NaN.
  const doublings = Math.min(failedAttempts - 1, 30);
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** doublings);
  const backoff = random() * ceiling;
  const retryAfterMs = failure.kind === 'status' ? failure.retryAfterMs : undefined;
  return retryAfterMs === undefined ? backoff : Math.max(retryAfterMs, backoff);
}

/** Retry-After (RFC 9110 §10.2.3) in milliseconds from `nowMs`: delay-seconds or an HTTP-date. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^[0-9]+$/.test(text)) return Number(text) * 1_000;
  // An HTTP-date names its day and month; without letters Date.parse would read "-5" as a year.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
