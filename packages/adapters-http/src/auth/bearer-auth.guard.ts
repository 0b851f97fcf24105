import { Inject, Injectable, Logger, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Principal } from '@plantstore/domain';
import type { FastifyRequest } from 'fastify';
import { requestOf } from '../context/request-of.js';
import { RouteMetadata } from '../context/route-metadata.js';
import { ApiError } from '../errors/api-error.js';
import { Failures } from '../errors/failures.js';
import { headerCount } from '../http/raw-headers.js';
import { FailedAuthLimiter } from '../limits/failed-auth-limiter.js';
import { HTTP_EVENTS, type HttpEvents } from '../ports/http-events.js';
import { AuthenticationRefused, RefusalLog } from './auth-failure.js';
import { readBearerCredentials } from './bearer-credentials.js';
import { IS_PUBLIC } from './public.decorator.js';

/** Global: every route needs a valid bearer token unless marked @Public(). */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  private readonly refusals = new RefusalLog(new Logger(BearerAuthGuard.name));
  private readonly isPublic: RouteMetadata<boolean | undefined>;

  constructor(
    reflector: Reflector,
    private readonly failedAuth: FailedAuthLimiter,
    @Inject(HTTP_EVENTS) private readonly events: HttpEvents,
  ) {
    super();
    this.isPublic = new RouteMetadata(reflector, IS_PUBLIC);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.isPublic.of(context) === true) return true;
    const { ip, raw } = requestOf<FastifyRequest>(context);
    const wait = this.failedAuth.retryAfterSeconds(ip);
    if (wait > 0) {
      this.events.authFailure('throttled');
      this.refusals.refused('throttled', ip);
      throw new ApiError(Failures.authFailuresThrottled(wait));
    }
    // Which of two credentials counts is not ours to guess; it is no token guess either (not throttled).
    if (headerCount(raw.rawHeaders, 'authorization') > 1) {
      this.events.authFailure('malformed');
      throw new ApiError(Failures.repeatedAuthorization);
    }
    try {
      return (await super.canActivate(context)) as boolean;
    } catch (error) {
      if (!(error instanceof AuthenticationRefused)) throw error;
      this.events.authFailure(error.reason);
      this.refusals.refused(error.reason, ip);
      const blockedFor = await this.failedAuth.recordFailure(ip);
      if (blockedFor > 0) throw new ApiError(Failures.authFailuresThrottled(blockedFor));
      throw new ApiError(error.reason === 'missing' ? Failures.missingToken : Failures.invalidToken);
    }
  }

  /** Passport's verdict: the principal, or an AuthenticationRefused saying why there is none. */
  override handleRequest<TUser = Principal>(
    error: unknown,
    user: unknown,
    _info: unknown,
    context: ExecutionContext,
  ): TUser {
    if (user) return user as TUser;
    // Passport hands over what a strategy failed with: an Error from this adapter's own strategy.
    if (error instanceof Error) throw error;
    if (error) throw new Error('the bearer strategy failed with a value that is not an Error');
    // passport-http-bearer fails without a reason: tell "no bearer credentials" from "bad ones".
    const header = requestOf<FastifyRequest>(context).headers.authorization;
    throw new AuthenticationRefused(readBearerCredentials(header).presented ? 'malformed' : 'missing');
  }
}
