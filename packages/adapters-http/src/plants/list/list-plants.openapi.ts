import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { MAX_CURSOR_LENGTH, PlantNameSearch, PlantPageQuery, PlantTag } from '@plantstore/domain';
import { ApiReadFailures } from '../../openapi/api-responses.js';
import { describeController } from '../../openapi/describe-controller.js';
import { PLANTS_TAG } from '../../openapi/openapi-document.js';
import { limitQuery, plantWithIdSchema } from '../plant.openapi.js';
import { FEED_CURSOR_HEADER } from './plant-list-representation.js';
import { ListPlantsController } from './list-plants.controller.js';

const PlantListItemSchema = plantWithIdSchema(
  {
    name: 'PlantListItem',
    description: 'A plant in a list: its id (exact int64 digits), its name, and its tag when it has one.',
  },
  'Identification number of the plant, written with its exact digits: values beyond 2^53 need a JSON parser that keeps big integers.',
);

export function DocumentListPlants(): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      operationId: 'listPlants',
      summary: 'List plants',
      description:
        'Plants ascending by id, a page at a time; deleted plants are never listed. Every page carries `Feed-Cursor`, where a copy made from the list follows the change feed from. A full page (exactly `limit` plants) carries a `Link` header with `rel="next"` to the following page, even when that page turns out empty; a shorter page is the last. Following `next` until it is absent returns every plant that stays in the store for the whole walk exactly once, whatever is created meanwhile. Ids are JSON numbers with exact int64 digits: read them with a parser that keeps big integers. With `name`, only plants whose name contains the text, compared case- and accent-insensitively; it combines with `tags` (both must hold) and pages exactly as the list does. Any query parameter other than these four is refused (40004).',
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
    limitQuery(
      PlantPageQuery,
      `How many plants at most: 1 to ${PlantPageQuery.MAX_LIMIT} in canonical decimal form; ${PlantPageQuery.DEFAULT_LIMIT} when absent.`,
    ),
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
        [FEED_CURSOR_HEADER]: {
          description:
            "A cursor of the change feed (`GET /plants/changes`, as its `after`) taken before this page was read, on every page: the page, with every change the feed reads from this cursor applied over it, is an exact copy (a change seen twice is harmless: versions only go up). To copy the whole catalogue, list every page and follow the feed from the first page's cursor. The origin's cursor while the store never held a plant.",
          schema: { type: 'string', maxLength: MAX_CURSOR_LENGTH, pattern: '^[0-9a-z.-]+$' },
          example: '1.0.3.2.lwelsp',
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

/** What the document says of GET /plants, applied to its controller by the document's builder (../../openapi-document-builder.ts). */
export function describeListPlants(): void {
  describeController(ListPlantsController, {
    controller: [ApiTags(PLANTS_TAG)],
    methods: { list: [DocumentListPlants()] },
  });
}
