import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { Public } from '../auth/public.decorator.js';
import { READINESS_PROBE, type ReadinessProbe } from '../tokens.js';
import { Lifecycle } from './lifecycle.js';

/** Liveness and readiness for orchestrators; no token needed. */
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly lifecycle: Lifecycle,
    @Inject(READINESS_PROBE) private readonly database: ReadinessProbe,
  ) {}

  @Get('healthz')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  @HealthCheck()
  ready() {
    if (this.lifecycle.isDraining) throw new ServiceUnavailableException('shutting down');
    return this.health.check([
      async () => {
        const session = this.indicators.check('database');
        try {
          await this.database.ping();
          return session.up();
        } catch {
          return session.down('unreachable');
        }
      },
    ]);
  }
}
