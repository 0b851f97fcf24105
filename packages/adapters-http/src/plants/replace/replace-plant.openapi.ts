import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiProperty, ApiSchema, ApiTags } from '@nestjs/swagger';
import { ApiChangeFailures } from '../../openapi/api-responses.js';
import { describeController } from '../../openapi/describe-controller.js';
import { PLANTS_TAG } from '../../openapi/openapi-document.js';
import { ETAG, IF_MATCH, NAME, PLANT_EXAMPLE, PLANT_ID, PlantSchema, TAG } from '../plant.openapi.js';
import { ReplacePlantController } from './replace-plant.controller.js';

@ApiSchema({
  name: 'PlantReplacement',
  description: 'A plant’s new name and tag (PUT): without `tag` the plant has none; an `id` must be the path’s.',
})
export class PlantReplacementSchema {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    required: false,
    description: 'Optional: when sent, it must denote the id in the path (a plant cannot move to another id).',
    example: 1,
  })
  readonly id?: number;

  @ApiProperty(NAME)
  readonly name!: string;

  @ApiProperty({ ...TAG, required: false })
  readonly tag?: string;
}

export function DocumentReplacePlant(): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      operationId: 'replacePlant',
      summary: 'Change a plant’s name and tag',
      description:
        'Replaces the name and tag of the plant (a body without `tag` removes its tag) and answers the plant as now stored, with its new ETag. A body equal to what is stored writes nothing and keeps the ETag, so a retry is safe. Never creates: an id never created is 404, a deleted plant 410. With `If-Match`, the change applies only while the plant still has one of the tags named, else 412 and nothing changes (unless the stored plant already equals the body: 200).',
    }),
    ApiBearerAuth('bearerAuth'),
    PLANT_ID,
    IF_MATCH,
    ApiBody({
      type: PlantReplacementSchema,
      required: true,
      description: 'The plant’s new name and tag; an `id`, if sent, must be the one in the path.',
      examples: { rename: { summary: 'A new name, no tag', value: { name: 'Swiss cheese plant' } } },
    }),
    ApiOkResponse({
      description: 'The plant as now stored.',
      type: PlantSchema,
      headers: ETAG,
      example: PLANT_EXAMPLE,
    }),
    ApiChangeFailures('replace'),
  );
}

/** What the document says of PUT /plants/{id}, applied to its controller by the document's builder (../../openapi-document-builder.ts). */
export function describeReplacePlant(): void {
  describeController(ReplacePlantController, {
    controller: [ApiTags(PLANTS_TAG)],
    methods: { replace: [DocumentReplacePlant()] },
  });
}
