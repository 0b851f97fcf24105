import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { LimiterRecord, LimiterStatus } from './limiter-records.js';

// Atomic in Redis: count the hit, start the window on the first one, block past the limit.
const HIT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local blockTtl = redis.call('PTTL', KEYS[2])
if blockTtl <= 0 and hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  blockTtl = tonumber(ARGV[3])
end
return { hits, blockTtl }
`;

const NOT_COUNTED: LimiterRecord = { hits: 0, blockedForSeconds: 0 };

export interface RedisLimiterOptions {
  /**
   * While Redis is failing, how long requests skip it (not limited) before one request tries
   * it again. Each call's own deadline is the client's `commandTimeout`.
   */
  readonly retryIntervalMs: number;
  readonly prefix?: string;
}

/**
 * Limit counters in Redis, so a limit holds across every instance sharing it. When Redis
 * fails (refuses, or stops answering: the client's commandTimeout is the deadline) the limits
 * fail open: an outage of the limiter must not become an outage of the API. While it is
 * failing, requests do not wait on it at all; one request every `retryIntervalMs` probes it,
 * and the first answer restores limiting. A warning is logged on each change of state, not
 * per request.
 */
export class RedisLimiterStorage {
  private readonly logger = new Logger('RedisLimiterStorage');
  private readonly prefix: string;
  private available = true;
  private failures = 0;
  private nextProbeAt = 0;

  constructor(
    private readonly redis: Redis,
    private readonly options: RedisLimiterOptions,
  ) {
    this.prefix = options.prefix ?? 'plantstore:limit:';
    // The connection's own events: without an `error` listener ioredis prints every failed
    // reconnect as a stack trace on stderr (dozens of non-JSON lines a minute). A lost
    // connection is a change of state like a failed call; a ready one ends the outage.
    redis.on('error', (error: Error) => this.markUnavailable(error));
    redis.on('ready', () => this.markAvailable());
  }

  get status(): LimiterStatus {
    return { available: this.available, failures: this.failures };
  }

  async hit(key: string, windowMs: number, limit: number, blockMs: number): Promise<LimiterRecord> {
    if (!this.available) {
      const now = Date.now();
      if (now < this.nextProbeAt) return NOT_COUNTED;
      // This request is the probe; the others keep skipping Redis until it answers.
      this.nextProbeAt = now + this.options.retryIntervalMs;
    }
    try {
      const [hits, blockTtlMs] = (await this.redis.eval(
        HIT,
        2,
        `${this.prefix}${key}:hits`,
        `${this.prefix}${key}:blocked`,
        windowMs,
        limit,
        blockMs,
      )) as [number, number];
      this.markAvailable();
      return { hits, blockedForSeconds: blockTtlMs > 0 ? Math.ceil(blockTtlMs / 1000) : 0 };
    } catch (error) {
      this.failures++;
      this.markUnavailable(error as Error);
      return NOT_COUNTED;
    }
  }

  /** One warning per change of state, whichever noticed it first: a call or the connection. */
  private markUnavailable(error: Error): void {
    if (!this.available) return;
    this.available = false;
    this.nextProbeAt = Date.now() + this.options.retryIntervalMs;
    this.logger.warn(`rate-limit counters unavailable, not limiting until Redis answers again: ${error.message}`);
  }

  private markAvailable(): void {
    if (this.available) return;
    this.available = true;
    this.logger.warn('rate-limit counters reachable again: limiting resumed');
  }
}
