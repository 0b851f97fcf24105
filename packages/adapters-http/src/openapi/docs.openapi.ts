import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiFailures, TRANSPORT_FAILURES } from './api-responses.js';
import { DocsController } from './docs.controller.js';
import { describeController } from './describe-controller.js';
import { OPERATIONS_TAG } from './openapi-document.js';

/** What the document says of /docs (its assets are left out), applied to its controller by the document's builder. */
export function describeDocsPage(): void {
  describeController(DocsController, {
    controller: [ApiTags(OPERATIONS_TAG), ApiFailures(...TRANSPORT_FAILURES)],
    methods: {
      page: [
        ApiOperation({
          operationId: 'docsPage',
          summary: 'Human-readable API documentation',
          description: 'Swagger UI on /openapi.json, served from this server (it works offline).',
        }),
        ApiProduces('text/html'),
        ApiOkResponse({ description: 'HTML page.', schema: { type: 'string' }, example: '<!doctype html>…' }),
      ],
      asset: [ApiExcludeEndpoint()],
    },
  });
}
