import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { LimiterRecord, LimiterStatus, LimiterStorage } from './limiter-storage.js';

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
export class RedisLimiterStorage implements LimiterStorage {
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
      if (!this.available) {
        this.available = true;
        this.logger.warn('rate-limit counters reachable again: limiting resumed');
      }
      return { hits, blockedForSeconds: blockTtlMs > 0 ? Math.ceil(blockTtlMs / 1000) : 0 };
    } catch (error) {
      this.failures++;
      if (this.available) {
        this.available = false;
        this.nextProbeAt = Date.now() + this.options.retryIntervalMs;
        this.logger.warn(
          `rate-limit counters unavailable, not limiting until Redis answers again: ${(error as Error).message}`,
        );
      }
      return NOT_COUNTED;
    }
  }
}
