/** The state of one fixed-window counter after a hit. */
export interface LimiterRecord {
  readonly hits: number;
  /** Seconds until the caller may try again; 0 when not blocked. */
  readonly blockedForSeconds: number;
}

/** Whether a remote counter store answers; the limits fail open while it does not. */
export interface LimiterStatus {
  readonly available: boolean;
  /** Calls that failed or missed their deadline since start. */
  readonly failures: number;
}

/** Where limit counters live: this process, or Redis to share them across instances. */
export interface LimiterStorage {
  /** Counts one hit on `key` in a window of `windowMs`; past `limit`, blocks the key for `blockMs`. */
  hit(key: string, windowMs: number, limit: number, blockMs: number): Promise<LimiterRecord>;
  /** Present for storage that can fail (Redis); in-process counters cannot. */
  readonly status?: LimiterStatus;
}

/** Where the limits find their LimiterStorage (PlantStoreHttpModule provides it). */
export const LIMITER_STORAGE = Symbol('LimiterStorage');
