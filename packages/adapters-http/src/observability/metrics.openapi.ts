import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiFailures, TRANSPORT_FAILURES } from '../openapi/api-responses.js';
import { describeController } from '../openapi/describe-controller.js';
import { OPERATIONS_TAG } from '../openapi/openapi-document.js';
import { MetricsController } from './metrics.controller.js';

/** What the document says of /metrics, applied to its controller by the document's builder. */
export function describeMetrics(): void {
  describeController(MetricsController, {
    controller: [ApiTags(OPERATIONS_TAG), ApiFailures(...TRANSPORT_FAILURES)],
    methods: {
      scrape: [
        ApiOperation({
          operationId: 'metrics',
          summary: 'Prometheus metrics',
          description: 'Request, plant, authentication and process metrics for a Prometheus scrape.',
        }),
        ApiProduces('text/plain'),
        ApiOkResponse({
          description: 'Prometheus text exposition format.',
          schema: { type: 'string' },
          example: 'plantstore_plants_total{outcome="created"} 1\n',
        }),
      ],
    },
  });
}
