import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiChangeFailures } from '../../openapi/api-responses.js';
import { describeController } from '../../openapi/describe-controller.js';
import { PLANTS_TAG } from '../../openapi/openapi-document.js';
import { IF_MATCH, PLANT_ID } from '../plant.openapi.js';
import { RemovePlantController } from './remove-plant.controller.js';

export function DocumentDeletePlant(): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      operationId: 'deletePlant',
      summary: 'Delete a plant',
      description:
        'Deletes the plant; its id is retired for ever (a create of it is 409 40902, a read 410). A plant already deleted answers 204 again, whatever `If-Match` says, so a retry is safe. With `If-Match`, a live plant is deleted only while it still has one of the tags named, else 412 and nothing is deleted.',
    }),
    ApiBearerAuth('bearerAuth'),
    PLANT_ID,
    IF_MATCH,
    ApiNoContentResponse({ description: 'Deleted now, or before. No body.' }),
    ApiChangeFailures('remove'),
  );
}

/** What the document says of DELETE /plants/{id}, applied to its controller by the document's builder (../../openapi-document-builder.ts). */
export function describeRemovePlant(): void {
  describeController(RemovePlantController, {
    controller: [ApiTags(PLANTS_TAG)],
    methods: { remove: [DocumentDeletePlant()] },
  });
}
