import { Controller, Get, Inject, Req, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import type { FastifyRequest } from 'fastify';
import { Public } from '../auth/public.decorator.js';
import { logCause } from '../logging/log-cause.js';
import { ApiFailures, TRANSPORT_FAILURES } from '../openapi/api-responses.js';
import { HealthSchema, ReadinessSchema } from '../openapi/api-schemas.js';
import { OPERATIONS_TAG } from '../openapi/openapi-document.js';
import { HTTP_OPTIONS, type HttpOptions, type ReadinessProbe } from '../ports/di-tokens.js';
import { Lifecycle } from './lifecycle.js';

/** Liveness and readiness for orchestrators; no token needed. */
@Public()
@ApiTags(OPERATIONS_TAG)
@ApiFailures(...TRANSPORT_FAILURES)
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
  @ApiOperation({
    operationId: 'liveness',
    summary: 'Liveness: the process is up',
    description: 'Answers 200 while the process runs; it checks nothing else.',
  })
  @ApiOkResponse({ description: 'Alive.', type: HealthSchema, example: { status: 'ok' } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOperation({
    operationId: 'readiness',
    summary: 'Readiness: the database answers and the server is not shutting down',
    description:
      'Answers 503 while the database cannot answer or the server drains, so that an orchestrator sends no traffic here.',
  })
  @ApiOkResponse({
    description: 'Ready.',
    type: ReadinessSchema,
    example: { status: 'ok', info: { database: { status: 'up' } }, error: {}, details: { database: { status: 'up' } } },
  })
  // Documented here: Terminus' own documentation states a 503 body the error filter replaces.
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
