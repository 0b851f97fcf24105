import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiFailures } from '../../openapi/api-responses.js';
import { describeController } from '../../openapi/describe-controller.js';
import { PLANTS_TAG } from '../../openapi/openapi-document.js';
import { PLANT_EXAMPLE, PlantSchema, plantWithIdSchema } from '../plant.openapi.js';
import { CreatePlantController } from './create-plant.controller.js';

const NewPlantSchema = plantWithIdSchema(
  { name: 'NewPlant', description: 'A Plant plus its required id, chosen by the client.' },
  'Identification number of the plant: any integer in the int64 range, kept exactly (1.0 and 1e2 are integers).',
);

export function DocumentCreatePlant(): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      operationId: 'createPlant',
      summary: 'Create a plant',
      description:
        'Creates a new plant in the store. The id is chosen by the client, so a create is safely retryable: the same id with the same name and tag answers 200 with the stored plant and writes nothing; the same id with different content answers 409 (40901). An id that belonged to a deleted plant is never used again: 409 (40902), whatever the body.',
    }),
    ApiBearerAuth('bearerAuth'),
    ApiBody({
      type: NewPlantSchema,
      required: true,
      description: 'The plant to create.',
      examples: {
        plant: { summary: 'A plant with a tag', value: { id: 1, name: 'Monstera deliciosa', tag: 'tropical' } },
      },
    }),
    ApiOkResponse({
      description: 'Plant response (created, or an identical retry).',
      type: PlantSchema,
      example: PLANT_EXAMPLE,
    }),
    ApiFailures(400, 401, 403, 405, 408, 409, 413, 415, 429, 431, 500, 501, 503, 505),
  );
}

/** What the document says of POST /plants, applied to its controller by the document's builder (../../openapi-document-builder.ts). */
export function describeCreatePlant(): void {
  describeController(CreatePlantController, {
    controller: [ApiTags(PLANTS_TAG)],
    methods: { create: [DocumentCreatePlant()] },
  });
}
