import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiFailures, TRANSPORT_FAILURES } from './api-responses.js';
import { describeController } from './describe-controller.js';
import { OPERATIONS_TAG } from './openapi-document.js';
import { OpenApiController } from './openapi.controller.js';

/** What the document says of /openapi.json, applied to its controller by the document's builder. */
export function describeOpenApiDocument(): void {
  describeController(OpenApiController, {
    controller: [ApiTags(OPERATIONS_TAG), ApiFailures(...TRANSPORT_FAILURES)],
    methods: {
      document: [
        ApiOperation({
          operationId: 'openApiDocument',
          summary: 'This document',
          description: 'The OpenAPI 3.1 description of this API, generated from its code.',
        }),
        ApiOkResponse({
          description: 'OpenAPI 3.1 document.',
          schema: { type: 'object' },
          example: { openapi: '3.1.0', info: { title: 'Plant Store', version: '1.0.0' } },
        }),
      ],
    },
  });
}
