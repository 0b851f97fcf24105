import { Inject, Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { requestOf } from '../context/request-of.js';
import { RouteMetadata } from '../context/route-metadata.js';
import { ApiError } from '../errors/api-error.js';
import { Failures, type Failure } from '../errors/failures.js';
import { FailedAuthLimiter } from '../limits/failed-auth-limiter.js';
import { HTTP_EVENTS, type HttpEvents } from '../ports/http-events.js';
import { RefusalLog } from './refusal-log.js';
import type { BearerRefusal } from './bearer.strategy.js';
import { bearerVerdict } from './passport-verdict.js';
import { IS_PUBLIC } from './public.decorator.js';

/**
 * Every route needs a valid bearer token unless marked @Public(). The bearer strategy reads
 * the Authorization header and passport answers its verdict; a refusal is counted, logged and
 * thrown here, once.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  private readonly refusals = new RefusalLog(new Logger(BearerAuthGuard.name));
  private readonly isPublic: RouteMetadata<boolean | undefined>;

  constructor(
    reflector: Reflector,
    private readonly failedAuth: FailedAuthLimiter,
    @Inject(HTTP_EVENTS) private readonly events: HttpEvents,
  ) {
    this.isPublic = new RouteMetadata(reflector, IS_PUBLIC);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.isPublic.of(context) === true) return true;
    const request = requestOf<FastifyRequest & { user?: unknown }>(context);
    const wait = this.failedAuth.retryAfterSeconds(request.ip);
    if (wait > 0) {
      this.events.authFailure('throttled');
      this.refusals.refused('throttled', request.ip);
      throw new ApiError(Failures.authFailuresThrottled(wait));
    }
    // The strategy reads the request as Node received it: its rawHeaders tell a repeated header.
    const verdict = await bearerVerdict(request.raw, context.getArgByIndex(1));
    if ('principal' in verdict) {
      request.user = verdict.principal;
      return true;
    }
    throw new ApiError(await this.refused(verdict.refusal, request.ip));
  }

  private async refused(refusal: BearerRefusal, address: string): Promise<Failure> {
    // Which of two credentials counts is not ours to guess; it is no token guess either (not throttled).
    if (refusal === 'repeated') {
      this.events.authFailure('malformed');
      return Failures.repeatedAuthorization;
    }
    this.events.authFailure(refusal);
    this.refusals.refused(refusal, address);
    const blockedFor = await this.failedAuth.recordFailure(address);
    if (blockedFor > 0) return Failures.authFailuresThrottled(blockedFor);
    return refusal === 'missing' ? Failures.missingToken : Failures.invalidToken;
  }
}
