import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { BearerAuthGuard } from '../auth/bearer-auth.guard.js';
import { ScopeGuard } from '../auth/scope.guard.js';
import { TokenRateLimitGuard } from '../limits/token-rate-limit.guard.js';

/**
 * Step 2 of the request pipeline (request-pipeline.ts), the app's one global guard:
 * authentication, then authorization, then the token's rate budget, in this order.
 */
@Injectable()
export class RequestGuards implements CanActivate {
  constructor(
    private readonly authentication: BearerAuthGuard,
    private readonly scope: ScopeGuard,
    private readonly rateBudget: TokenRateLimitGuard,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    return (
      (await this.authentication.canActivate(context)) &&
      this.scope.canActivate(context) &&
      (await this.rateBudget.canActivate(context))
    );
  }
}
