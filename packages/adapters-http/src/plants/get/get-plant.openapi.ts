import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiReadFailures } from '../../openapi/api-responses.js';
import { describeController } from '../../openapi/describe-controller.js';
import { PLANTS_TAG } from '../../openapi/openapi-document.js';
import { ETAG, PLANT_EXAMPLE, PLANT_ID, PlantSchema } from '../plant.openapi.js';
import { GetPlantController } from './get-plant.controller.js';

export function DocumentGetPlant(): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      operationId: 'getPlant',
      summary: 'Get a plant by id',
      description:
        'The plant exactly as the create answers it (`name`, and `tag` when it has one), with a strong `ETag`. Send that tag back in `If-None-Match` to get 304 without a body while the plant is unchanged, or in `If-Match` to change or delete exactly this version. A deleted plant answers 410.',
    }),
    ApiBearerAuth('bearerAuth'),
    PLANT_ID,
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'An ETag from an earlier answer: 304 without a body when the plant still has it.',
    }),
    ApiOkResponse({ description: 'The plant.', type: PlantSchema, headers: ETAG, example: PLANT_EXAMPLE }),
    ApiResponse({ status: 304, description: 'Not modified: the ETag in If-None-Match is current. No body.' }),
    ApiReadFailures('get'),
  );
}

/** What the document says of GET /plants/{id}, applied to its controller by the document's builder (../../openapi-document-builder.ts). */
export function describeGetPlant(): void {
  describeController(GetPlantController, { controller: [ApiTags(PLANTS_TAG)], methods: { get: [DocumentGetPlant()] } });
}
