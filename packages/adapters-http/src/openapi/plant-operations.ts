import { applyDecorators } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
} from '@nestjs/swagger';
import { PlantNameSearch, PlantPageQuery, PlantTag } from '@plantstore/domain';
import { ApiChangeFailures, ApiFailures, ApiReadFailures } from './api-responses.js';
import { NewPlantSchema, PlantListItemSchema, PlantReplacementSchema, PlantSchema } from './api-schemas.js';

/*
 * What the OpenAPI document says of each plant operation, beside the controller that serves it
 * (plants/plants.controller.ts): the controller states what each route does, these what it is
 * documented to answer.
 */

const PLANT_EXAMPLE = { name: 'Monstera deliciosa', tag: 'tropical' };

const ETAG = {
  ETag: {
    description: 'Strong entity tag of this answer (RFC 9110 §8.8.3): the same on every instance for the same content.',
    schema: { type: 'string' },
    example: '"q2v2s1Dh6xqO3C3fF5y8JcWQHc9f0bUkvQ7o5qk8y4E"',
  },
};

const PLANT_ID = ApiParam({
  name: 'id',
  type: 'integer',
  format: 'int64',
  description:
    'The plant id in canonical decimal form: `0`, or an optional `-` and digits without a leading zero, between -9223372036854775808 and 9223372036854775807 (`007`, `+5` and `1e2` are refused with 40004).',
  example: 1,
});

const IF_MATCH = ApiHeader({
  name: 'If-Match',
  required: false,
  description:
    'ETags from an earlier answer (or `*`): the request applies only while the plant still has one of them, else 412 and nothing changes. Weak tags (`W/"…"`) match nothing.',
});

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

export function DocumentListPlants(): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      operationId: 'listPlants',
      summary: 'List plants',
      description:
        'Plants ascending by id, a page at a time; deleted plants are never listed. A full page (exactly `limit` plants) carries a `Link` header with `rel="next"` to the following page, even when that page turns out empty; a shorter page is the last. Following `next` until it is absent returns every plant that stays in the store for the whole walk exactly once, whatever is created meanwhile. Ids are JSON numbers with exact int64 digits: read them with a parser that keeps big integers. With `name`, only plants whose name contains the text, compared case- and accent-insensitively; it combines with `tags` (both must hold) and pages exactly as the list does. Any query parameter other than these four is refused (40004).',
    }),
    ApiBearerAuth('bearerAuth'),
    // In the document in this order: tags, name, limit, after.
    ApiQuery({
      name: 'tags',
      required: false,
      style: 'form',
      explode: true,
      schema: { type: 'array', items: { type: 'string', minLength: 1, maxLength: PlantTag.MAX_CODE_POINTS } },
      description: 'Repeatable (`?tags=a&tags=b`): only plants whose tag equals one of them, exactly.',
    }),
    ApiQuery({
      name: 'name',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: PlantNameSearch.MAX_CODE_POINTS },
      example: 'fougere',
      description: `At most once: only plants whose name contains this text, compared as a person means it, case- and accent-insensitively (\`fougere\` finds \`Fougère\`, \`MONSTERA\` finds \`Monstera deliciosa\`, \`ß\` finds \`SS\`): both sides are case-folded (full Unicode folding), decomposed (NFKD) and stripped of nonspacing marks. 1 to ${PlantNameSearch.MAX_CODE_POINTS} code points, no control characters, not only white space.`,
    }),
    ApiQuery({
      name: 'limit',
      required: false,
      schema: {
        type: 'integer',
        format: 'int32',
        minimum: 1,
        maximum: PlantPageQuery.MAX_LIMIT,
        default: PlantPageQuery.DEFAULT_LIMIT,
      },
      description: `How many plants at most: 1 to ${PlantPageQuery.MAX_LIMIT} in canonical decimal form; ${PlantPageQuery.DEFAULT_LIMIT} when absent.`,
    }),
    ApiQuery({
      name: 'after',
      required: false,
      schema: { type: 'integer', format: 'int64' },
      description:
        'Only plants with an id greater than this one: an int64 in canonical decimal form (`0`, or an optional `-` and digits without a leading zero). The `next` link carries it.',
    }),
    ApiOkResponse({
      description: 'A page of plants, ascending by id.',
      type: PlantListItemSchema,
      isArray: true,
      headers: {
        Link: {
          description:
            'RFC 8288: `</plants?tags=…&name=…&limit=…&after=<last id>>; rel="next"` (the same tags and name) when the page is full; absent on a shorter page.',
          schema: { type: 'string' },
          example: '</plants?tags=tropical&limit=2&after=2>; rel="next"',
        },
      },
      example: [
        { id: 1, name: 'Monstera deliciosa', tag: 'tropical' },
        { id: 2, name: 'Ficus lyrata', tag: 'tropical' },
      ],
    }),
    ApiReadFailures('list'),
  );
}

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
