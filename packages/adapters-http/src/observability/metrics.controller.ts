import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/public.decorator.js';
import { PlantStoreMetrics } from './plant-store-metrics.js';

/** Prometheus text format. Public like the health checks: it holds counts, no secrets. */
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: PlantStoreMetrics) {}

  @Get()
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    const body = await this.metrics.registry.metrics();
    void reply.header('content-type', this.metrics.registry.contentType).send(body);
  }
}
