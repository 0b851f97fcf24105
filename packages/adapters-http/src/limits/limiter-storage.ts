/** The state of one fixed-window counter after a hit. */
export interface LimiterRecord {
  readonly hits: number;
  /** Seconds until the caller may try again; 0 when not blocked. */
  readonly blockedForSeconds: number;
}

/** Where limit counters live: this process, or Redis to share them across instances. */
export interface LimiterStorage {
  /** Counts one hit on `key` in a window of `windowMs`; past `limit`, blocks the key for `blockMs`. */
  hit(key: string, windowMs: number, limit: number, blockMs: number): Promise<LimiterRecord>;
}

/** Counters in this process only: correct for a single instance. */
export class InMemoryLimiterStorage implements LimiterStorage {
  private readonly windows = new Map<string, { hits: number; resetAt: number; blockedUntil: number }>();

  async hit(key: string, windowMs: number, limit: number, blockMs: number): Promise<LimiterRecord> {
    const now = Date.now();
    let window = this.windows.get(key);
    if (window === undefined || (window.resetAt <= now && window.blockedUntil <= now)) {
      window = { hits: 0, resetAt: now + windowMs, blockedUntil: 0 };
      this.windows.set(key, window);
      this.evictExpired(now);
    }
    window.hits++;
    if (window.blockedUntil <= now && window.hits > limit) window.blockedUntil = now + blockMs;
    const blockedFor = window.blockedUntil > now ? Math.ceil((window.blockedUntil - now) / 1000) : 0;
    return { hits: window.hits, blockedForSeconds: blockedFor };
  }

  // Bounded memory: drop finished windows once the map grows.
  private evictExpired(now: number): void {
    if (this.windows.size < 10_000) return;
    for (const [key, window] of this.windows) if (window.resetAt <= now && window.blockedUntil <= now) this.windows.delete(key);
  }
}

export const LIMITER_STORAGE = Symbol('LimiterStorage');
