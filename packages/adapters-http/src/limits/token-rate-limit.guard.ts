import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Principal } from '@plantstore/domain';
import { requestOf } from '../context/request-of.js';
import { ApiError } from '../errors/api-error.js';
import { Failures } from '../errors/failures.js';
import { HTTP_OPTIONS, type HttpOptions } from '../ports/di-tokens.js';
import { LIMITER_STORAGE, type LimiterStorage } from '../ports/limiter-storage.js';

/** Per-token budget of requests per minute (off unless RATE_LIMIT_PER_MINUTE is set); runs after authentication. */
@Injectable()
export class TokenRateLimitGuard implements CanActivate {
  constructor(
    @Inject(HTTP_OPTIONS) private readonly options: HttpOptions,
    @Inject(LIMITER_STORAGE) private readonly storage: LimiterStorage,
  ) {}

  // Not async: with the budget off (the default) no promise is made for each request.
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const limit = this.options.rateLimitPerMinute;
    const principal = requestOf<{ user?: Principal }>(context).user;
    if (limit === 0 || principal === undefined) return true;
    return this.spend(principal, limit);
  }

  private async spend(principal: Principal, limit: number): Promise<boolean> {
    const record = await this.storage.hit(`token:${principal.tokenId}`, 60_000, limit, 60_000);
    if (record.blockedForSeconds > 0) throw new ApiError(Failures.tokenBudgetSpent(record.blockedForSeconds));
    return true;
  }
}
