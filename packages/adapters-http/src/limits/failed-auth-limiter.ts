import { Inject, Injectable } from '@nestjs/common';
import { HTTP_OPTIONS, type HttpOptions } from '../ports/di-tokens.js';
import { LIMITER_STORAGE, type LimiterStorage } from '../ports/limiter-storage.js';

const WINDOW_MS = 60_000;

/**
 * Slows token guessing: an address with too many failed authentications in a minute is
 * refused (429) for a minute, valid token or not, so a 429 reveals nothing about a guess.
 * Counters live in the limiter storage (Redis when configured); the block is remembered
 * locally too, so a blocked address is refused without a round trip.
 */
@Injectable()
export class FailedAuthLimiter {
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    @Inject(HTTP_OPTIONS) private readonly options: HttpOptions,
    @Inject(LIMITER_STORAGE) private readonly storage: LimiterStorage,
  ) {}

  /** Seconds the address must still wait, 0 when it may try. */
  retryAfterSeconds(address: string): number {
    const until = this.blockedUntil.get(address);
    if (until === undefined) return 0;
    const remaining = until - Date.now();
    if (remaining > 0) return Math.ceil(remaining / 1000);
    this.blockedUntil.delete(address);
    return 0;
  }

  /** Counts a failure; returns the seconds to wait when the address is now blocked, else 0. */
  async recordFailure(address: string): Promise<number> {
    const limit = this.options.authFailuresPerMinute;
    if (limit === 0) return 0;
    const record = await this.storage.hit(`auth-failures:${address}`, WINDOW_MS, limit, WINDOW_MS);
    if (record.blockedForSeconds === 0) return 0;
    if (this.blockedUntil.size >= 10_000) this.blockedUntil.clear();
    this.blockedUntil.set(address, Date.now() + record.blockedForSeconds * 1000);
    return record.blockedForSeconds;
  }
}
