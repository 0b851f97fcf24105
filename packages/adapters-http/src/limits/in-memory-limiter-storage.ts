import type { LimiterRecord, LimiterStorage } from '../ports/limiter-storage.js';

/** Sweeps start once this many windows are held. */
const SWEEP_THRESHOLD = 10_000;

/** Counters in this process only: correct for a single instance. */
export class InMemoryLimiterStorage implements LimiterStorage {
  private readonly windows = new Map<string, { hits: number; resetAt: number; blockedUntil: number }>();
  private sweepAt = SWEEP_THRESHOLD;
  /** How many times the whole map was scanned (observable cost, for tests). */
  sweeps = 0;

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.windows.size;
  }

  async hit(key: string, windowMs: number, limit: number, blockMs: number): Promise<LimiterRecord> {
    const now = this.now();
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

  /**
   * Bounded memory: drop finished windows once the map grows. The next sweep waits until the
   * map has doubled again, so with many live windows (many client addresses within a minute) a
   * new key does not pay for a scan of all of them: the cost per hit stays constant.
   */
  private evictExpired(now: number): void {
    if (this.windows.size < this.sweepAt) return;
    this.sweeps++;
    for (const [key, window] of this.windows)
      if (window.resetAt <= now && window.blockedUntil <= now) this.windows.delete(key);
    this.sweepAt = Math.max(SWEEP_THRESHOLD, 2 * this.windows.size);
  }
}
