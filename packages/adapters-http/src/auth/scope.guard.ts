import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Principal, Scope } from '@plantstore/domain';
import { ApiError } from '../errors/api-error.js';
import { Failures } from '../errors/failures.js';
import { PlantStoreMetrics } from '../observability/plant-store-metrics.js';
import { REQUIRED_SCOPE } from './require-scope.decorator.js';

/** Runs after BearerAuthGuard: the principal must hold the scope the route declares. */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly metrics: PlantStoreMetrics,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const scope = this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, [context.getHandler(), context.getClass()]);
    if (scope === undefined) return true;
    const principal = context.switchToHttp().getRequest<{ user?: Principal }>().user;
    if (principal?.can(scope)) return true;
    this.metrics.authFailure('insufficient_scope');
    throw new ApiError(Failures.insufficientScope(scope));
  }
}
