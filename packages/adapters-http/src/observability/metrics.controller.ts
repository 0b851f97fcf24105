import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/public.decorator.js';
import { ApiFailures, TRANSPORT_FAILURES } from '../openapi/api-responses.js';
import { OPERATIONS_TAG } from '../openapi/openapi-document.js';
import { PlantStoreMetrics } from './plant-store-metrics.js';

/** Prometheus text format. Public like the health checks: it holds counts, no secrets. */
@Public()
@ApiTags(OPERATIONS_TAG)
@ApiFailures(...TRANSPORT_FAILURES)
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: PlantStoreMetrics) {}

  @Get()
  @ApiOperation({
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    description: 'Request, plant, authentication and process metrics for a Prometheus scrape.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: 'Prometheus text exposition format.',
    schema: { type: 'string' },
    example: 'plantstore_plants_total{outcome="created"} 1\n',
  })
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    const body = await this.metrics.registry.metrics();
    void reply.header('content-type', this.metrics.registry.contentType).send(body);
  }
}
