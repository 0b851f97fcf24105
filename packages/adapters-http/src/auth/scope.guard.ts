import { Inject, Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Principal, Scope } from '@plantstore/domain';
import { requestOf } from '../context/request-of.js';
import { RouteMetadata } from '../context/route-metadata.js';
import { ApiError } from '../errors/api-error.js';
import { Failures } from '../errors/failures.js';
import { HTTP_EVENTS, type HttpEvents } from '../ports/http-events.js';
import { RefusalLog } from './refusal-log.js';
import { REQUIRED_SCOPE } from './require-scope.decorator.js';

/** Runs after BearerAuthGuard: the principal must hold the scope the route declares. */
@Injectable()
export class ScopeGuard implements CanActivate {
  private readonly refusals = new RefusalLog(new Logger(ScopeGuard.name));
  private readonly requiredScope: RouteMetadata<Scope | undefined>;

  constructor(
    reflector: Reflector,
    @Inject(HTTP_EVENTS) private readonly events: HttpEvents,
  ) {
    this.requiredScope = new RouteMetadata(reflector, REQUIRED_SCOPE);
  }

  canActivate(context: ExecutionContext): boolean {
    const scope = this.requiredScope.of(context);
    if (scope === undefined) return true;
    const request = requestOf<{ user?: Principal; ip: string }>(context);
    if (request.user?.can(scope)) return true;
    this.events.authFailure('insufficient_scope');
    this.refusals.refused('insufficient_scope', request.ip);
    throw new ApiError(Failures.insufficientScope(scope));
  }
}
