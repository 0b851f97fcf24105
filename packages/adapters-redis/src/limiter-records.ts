/*
 * The counter store the HTTP adapter's limits take (its LimiterStorage port), as this package
 * implements it. Adapters do not import each other: the app that hands RedisLimiterStorage to
 * the HTTP adapter is where TypeScript holds the two shapes to each other.
 */

/** The state of one fixed-window counter after a hit. */
export interface LimiterRecord {
  readonly hits: number;
  /** Seconds until the caller may try again; 0 when it is not blocked. */
  readonly blockedForSeconds: number;
}

/** Whether Redis answers; the limits fail open while it does not. */
export interface LimiterStatus {
  readonly available: boolean;
  /** Calls that failed or missed their deadline since start. */
  readonly failures: number;
}
