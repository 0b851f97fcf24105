import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Principal } from '@plantstore/domain';
import type { FastifyRequest } from 'fastify';
import { ApiError, invalidTokenError, missingTokenError, rateLimitedError } from '../errors/api-error.js';
import { FailedAuthLimiter } from '../limits/failed-auth-limiter.js';
import { PlantStoreMetrics } from '../observability/plant-store-metrics.js';
import { TokenRefusedError } from './bearer.strategy.js';
import { IS_PUBLIC } from './public.decorator.js';

const BEARER_SCHEME = /^bearer(\s|$)/i;

export type AuthOutcome = 'ok' | 'missing' | 'malformed' | 'unknown' | 'expired' | 'revoked';

/** Where the guard leaves why a request was or was not authenticated (for logs and metrics). */
export const AUTH_OUTCOME = Symbol('authOutcome');

/** Global: every route needs a valid bearer token unless marked @Public(). */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  constructor(
    private readonly reflector: Reflector,
    private readonly failedAuth: FailedAuthLimiter,
    private readonly metrics: PlantStoreMetrics,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & { [AUTH_OUTCOME]?: AuthOutcome }>();
    const wait = this.failedAuth.retryAfterSeconds(request.ip);
    if (wait > 0) {
      this.metrics.authFailure('throttled');
      throw rateLimitedError(wait, 'Too many failed authentications from this address; retry after the time in the Retry-After header.');
    }
    try {
      return (await super.canActivate(context)) as boolean;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        this.metrics.authFailure(request[AUTH_OUTCOME] === 'ok' || request[AUTH_OUTCOME] === undefined ? 'missing' : request[AUTH_OUTCOME]);
        const blockedFor = await this.failedAuth.recordFailure(request.ip);
        if (blockedFor > 0) throw rateLimitedError(blockedFor, 'Too many failed authentications from this address; retry after the time in the Retry-After header.');
      }
      throw error;
    }
  }

  override handleRequest<TUser = Principal>(error: unknown, user: unknown, _info: unknown, context: ExecutionContext): TUser {
    const request = context.switchToHttp().getRequest<FastifyRequest & { [AUTH_OUTCOME]?: AuthOutcome }>();
    if (user) {
      request[AUTH_OUTCOME] = 'ok';
      return user as TUser;
    }
    if (error instanceof TokenRefusedError) {
      request[AUTH_OUTCOME] = error.reason;
      throw invalidTokenError();
    }
    if (error) throw error;
    // passport-http-bearer fails without a reason: tell "no bearer credentials" from "bad ones".
    const header = request.headers.authorization;
    if (typeof header === 'string' && BEARER_SCHEME.test(header)) {
      request[AUTH_OUTCOME] = 'malformed';
      throw invalidTokenError();
    }
    request[AUTH_OUTCOME] = 'missing';
    throw missingTokenError();
  }
}
