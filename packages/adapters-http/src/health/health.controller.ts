import { Controller, Get, Inject, Req, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import type { FastifyRequest } from 'fastify';
import { Public } from '../auth/public.decorator.js';
import { logCause } from '../logging/log-cause.js';
import { HTTP_OPTIONS, type HttpOptions, type ReadinessProbe } from '../ports/di-tokens.js';
import { Lifecycle } from './lifecycle.js';

/** Liveness and readiness for orchestrators; no token needed. */
@Public()
@Controller()
export class HealthController {
  private readonly database: ReadinessProbe;

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly lifecycle: Lifecycle,
    @Inject(HTTP_OPTIONS) { readiness }: HttpOptions,
  ) {
    this.database = readiness;
  }

  @Get('healthz')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  // Documented in health.openapi.ts: Terminus' own documentation states a 503 body the error filter
  // replaces, and would load @nestjs/swagger with the controller.
  @HealthCheck({ swaggerDocumentation: false })
  ready(@Req() request: FastifyRequest) {
    if (this.lifecycle.isDraining) {
      logCause(request, 'shutting down');
      throw new ServiceUnavailableException('shutting down');
    }
    return this.health.check([
      async () => {
        const session = this.indicators.check('database');
        try {
          await this.database.ping();
          return session.up();
        } catch {
          logCause(request, 'database unreachable');
          return session.down('unreachable');
        }
      },
    ]);
  }
}
