/** How often a recurring refusal may write a line: a flood of them writes one a second, not one each. */
export const SAMPLED_LOG_INTERVAL_MS = 1_000;

/**
 * Decides which occurrences of a recurring event (a refusal an attacker can repeat at will)
 * get a log line: the first, then at most one per interval. The metrics count every one; the
 * lines say how many went unwritten since the line before, so nothing is hidden, only summed.
 */
export class LogSampler {
  private lastLineAt = Number.NEGATIVE_INFINITY;
  private unwritten = 0;

  constructor(
    private readonly intervalMs = SAMPLED_LOG_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * One occurrence. Returns undefined when it writes no line; otherwise how many occurrences
   * went unwritten since the last line (0 for an isolated one).
   */
  take(): number | undefined {
    const now = this.now();
    if (now - this.lastLineAt < this.intervalMs) {
      this.unwritten++;
      return undefined;
    }
    const unwritten = this.unwritten;
    this.lastLineAt = now;
    this.unwritten = 0;
    return unwritten;
  }
}
