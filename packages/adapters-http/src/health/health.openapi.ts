import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiFailures, TRANSPORT_FAILURES } from '../openapi/api-responses.js';
import { HealthSchema, ReadinessSchema } from '../openapi/api-schemas.js';
import { describeController } from '../openapi/describe-controller.js';
import { OPERATIONS_TAG } from '../openapi/openapi-document.js';
import { HealthController } from './health.controller.js';

/** What the document says of /healthz and /readyz, applied to their controller by the document's builder. */
export function describeHealth(): void {
  describeController(HealthController, {
    controller: [ApiTags(OPERATIONS_TAG), ApiFailures(...TRANSPORT_FAILURES)],
    methods: {
      live: [
        ApiOperation({
          operationId: 'liveness',
          summary: 'Liveness: the process is up',
          description: 'Answers 200 while the process runs; it checks nothing else.',
        }),
        ApiOkResponse({ description: 'Alive.', type: HealthSchema, example: { status: 'ok' } }),
      ],
      ready: [
        ApiOperation({
          operationId: 'readiness',
          summary: 'Readiness: the database answers and the server is not shutting down',
          description:
            'Answers 503 while the database cannot answer or the server drains, so that an orchestrator sends no traffic here.',
        }),
        ApiOkResponse({
          description: 'Ready.',
          type: ReadinessSchema,
          example: {
            status: 'ok',
            info: { database: { status: 'up' } },
            error: {},
            details: { database: { status: 'up' } },
          },
        }),
      ],
    },
  });
}
