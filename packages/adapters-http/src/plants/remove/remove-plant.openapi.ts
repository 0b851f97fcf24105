import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOperation } from '@nestjs/swagger';
import { ApiChangeFailures } from '../../openapi/api-responses.js';
import { IF_MATCH, PLANT_ID } from '../plant-openapi.js';

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
