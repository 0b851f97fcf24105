import { Inject, Injectable, Logger, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Principal } from '@plantstore/domain';
import type { FastifyRequest } from 'fastify';
import { requestOf } from '../context/request-of.js';
import { RouteMetadata } from '../context/route-metadata.js';
import { ApiError } from '../errors/api-error.js';
import { Failures, type Failure } from '../errors/failures.js';
import { FailedAuthLimiter } from '../limits/failed-auth-limiter.js';
import { HTTP_EVENTS, type HttpEvents } from '../ports/http-events.js';
import { readBearerCredentials } from './bearer-credentials.js';
import { RefusalLog } from './refusal-log.js';
import { BearerRefusal, type BearerRefusalReason } from './bearer.strategy.js';
import { IS_PUBLIC } from './public.decorator.js';

type AuthenticatedRequest = FastifyRequest & { user?: Principal };

/**
 * Every route needs a valid bearer token unless marked @Public(). @nestjs/passport's stock
 * guard runs the bearer strategy; `handleRequest` turns passport's answer into the one verdict
 * (a principal, or a refusal with its reason), and a refusal is counted, logged and thrown
 * here, once (`canActivate`: counting waits on the failed-authentication limiter).
 */
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
    const { ip } = requestOf<FastifyRequest>(context);
    const wait = this.failedAuth.retryAfterSeconds(ip);
    if (wait > 0) {
      this.events.authFailure('throttled');
      this.refusals.refused('throttled', ip);
      throw new ApiError(Failures.authFailuresThrottled(wait));
    }
    try {
      await super.canActivate(context);
    } catch (error) {
      if (error instanceof BearerRefusal) throw new ApiError(await this.refused(error.reason, ip));
      throw error;
    }
    return true;
  }

  /**
   * What passport-http-bearer reads: a request made of the header as readBearerCredentials read
   * it, `Bearer <token>` or nothing. Its own reading would split on one space where RFC 7235
   * allows several, and take `access_token` from the query string and the body, which
   * docs/tokens.md refuses; this request has neither.
   */
  override getRequest(context: ExecutionContext): { headers: { authorization?: string }; user?: Principal } {
    const credentials = readBearerCredentials(requestOf<FastifyRequest>(context).raw);
    return { headers: credentials.kind === 'token' ? { authorization: `Bearer ${credentials.token}` } : {} };
  }

  /** passport's answer as the verdict: the principal, or a refusal with its reason. */
  override handleRequest<TUser = Principal>(
    error: Error | null | undefined,
    principal: Principal | false | null | undefined,
    _challenge: unknown,
    context: ExecutionContext,
  ): TUser {
    // A refused token (BearerRefusal from validate), or a failure (the store down): thrown as it came.
    if (error) throw error;
    const request = requestOf<AuthenticatedRequest>(context);
    // AuthGuard puts the principal on the request it made for passport; the handlers read Fastify's.
    if (principal) return (request.user = principal) as TUser;
    // passport found no token in what the header presented.
    const credentials = readBearerCredentials(request.raw);
    throw new BearerRefusal(credentials.kind === 'token' ? 'unknown' : credentials.kind);
  }

  private async refused(refusal: BearerRefusalReason, address: string): Promise<Failure> {
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
