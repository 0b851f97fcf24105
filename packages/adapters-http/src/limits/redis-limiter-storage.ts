import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { LimiterRecord, LimiterStorage } from './limiter-storage.js';

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

/**
 * Limit counters in Redis, so a limit holds across every instance sharing it. When Redis
 * is unreachable the limit fails open (logged): an outage of the limiter must not become
 * an outage of the API.
 */
export class RedisLimiterStorage implements LimiterStorage {
  private readonly logger = new Logger('RedisLimiterStorage');
  private lastWarning = 0;

  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'plantstore:limit:',
  ) {}

  async hit(key: string, windowMs: number, limit: number, blockMs: number): Promise<LimiterRecord> {
    try {
      const [hits, blockTtlMs] = (await this.redis.eval(HIT, 2, `${this.prefix}${key}:hits`, `${this.prefix}${key}:blocked`, windowMs, limit, blockMs)) as [number, number];
      return { hits, blockedForSeconds: blockTtlMs > 0 ? Math.ceil(blockTtlMs / 1000) : 0 };
    } catch (error) {
      if (Date.now() - this.lastWarning > 10_000) {
        this.lastWarning = Date.now();
        this.logger.warn(`rate-limit counters unavailable, not limiting: ${(error as Error).message}`);
      }
      return NOT_COUNTED;
    }
  }
}
