/** How often, at most, a recurring refusal writes a line once its burst is spent. */
export const SAMPLED_LOG_INTERVAL_MS = 1_000;
/** How many lines in a row it may write before that: isolated refusals are all logged. */
export const SAMPLED_LOG_BURST = 10;

/**
 * Decides which occurrences of a recurring event (a refusal a client can repeat at will) get a
 * log line: a token bucket of `burst` lines, refilled by one per interval. Occasional refusals
 * each get their line; a flood gets `burst` lines, then one per interval. The metrics count
 * every occurrence; a line says how many went unwritten since the line before, so nothing is
 * hidden, only summed.
 */
export class LogSampler {
  private tokens: number;
  private refilledAt: number;
  private unwritten = 0;

  constructor(
    private readonly intervalMs = SAMPLED_LOG_INTERVAL_MS,
    private readonly burst = SAMPLED_LOG_BURST,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.refilledAt = now();
  }

  /**
   * One occurrence. Returns undefined when it writes no line; otherwise how many occurrences
   * went unwritten since the last line (0 for an isolated one).
   */
  take(): number | undefined {
    const now = this.now();
    const refill = Math.floor((now - this.refilledAt) / this.intervalMs);
    if (refill > 0) {
      this.tokens = Math.min(this.burst, this.tokens + refill);
      this.refilledAt += refill * this.intervalMs;
    }
    if (this.tokens < 1) {
      this.unwritten++;
      return undefined;
    }
    this.tokens--;
    const unwritten = this.unwritten;
    this.unwritten = 0;
    return unwritten;
  }
}
