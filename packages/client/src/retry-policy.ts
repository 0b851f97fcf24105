/**
 * When a failed create is tried again, and after how long. A create is safe to repeat: the
 * same id with the same content answers 200 and writes nothing (docs/http-api.md), so a
 * create whose answer was lost can be sent again without making a second plant.
 */
export interface RetryOptions {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  /** Backoff before the second attempt; it doubles with each attempt... */
  readonly baseDelayMs: number;
  /** ...up to this cap. The wait is drawn uniformly below it ("full jitter"). */
  readonly maxDelayMs: number;
  /** A Retry-After longer than this ends the call with the error instead of waiting. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 6,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 60_000,
};

/** What went wrong with one attempt, as far as retrying is concerned. */
export type AttemptFailure =
  | { readonly kind: 'network' }
  | { readonly kind: 'status'; readonly status: number; readonly retryAfterMs: number | undefined };

/** Statuses that say "not now": the database is unavailable or the server is draining (503), or a rate limit (429). */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Milliseconds to wait before the next attempt, or undefined when the call should end with
 * this failure. Any other status is an answer about the request itself (400, 401, 403, 409,
 * 413, 415, ...) or an unexpected failure (500) that repeating would not change.
 */
export function retryDelayMs(
  failure: AttemptFailure,
  failedAttempts: number,
  options: RetryOptions,
  random: () => number,
): number | undefined {
  if (failedAttempts >= options.maxAttempts) return undefined;
  if (failure.kind === 'status' && !RETRYABLE_STATUSES.has(failure.status)) return undefined;
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (failedAttempts - 1));
  const backoff = random() * ceiling;
  const retryAfterMs = failure.kind === 'status' ? failure.retryAfterMs : undefined;
  if (retryAfterMs === undefined) return backoff;
  if (retryAfterMs > options.maxRetryAfterMs) return undefined;
  return Math.max(retryAfterMs, backoff);
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
