import { Controller, Get, Headers, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  PlantConflictError,
  PlantNotFoundError,
  PlantPageQuery,
  PlantTag,
  type CreatePlant,
  type GetPlant,
  type ListPlants,
  type Plant,
  type PlantId,
  type Principal,
} from '@plantstore/domain';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import { RequireScope } from '../auth/require-scope.decorator.js';
import { CREATE_PLANT, GET_PLANT, LIST_PLANTS } from '../ports/di-tokens.js';
import { HTTP_EVENTS, type HttpEvents } from '../ports/http-events.js';
import { ApiFailures, ApiReadFailures } from '../openapi/api-responses.js';
import { NewPlantSchema, PlantListItemSchema, PlantSchema } from '../openapi/api-schemas.js';
import { PLANTS_TAG } from '../openapi/openapi-document.js';
import { NewPlantBody } from './new-plant-body.decorator.js';
import { PlantIdPipe } from './plant-id.pipe.js';
import { PlantPageQueryParam } from './plant-page-query.decorator.js';
import {
  JSON_UTF8,
  matchesIfNoneMatch,
  nextLink,
  plantBody,
  plantListBody,
  strongEtag,
} from './plant-representation.js';
import { toPlantResponse, type PlantResponse } from './plant.response.js';

@ApiTags(PLANTS_TAG)
@Controller('plants')
export class PlantsController {
  constructor(
    @Inject(CREATE_PLANT) private readonly createPlant: CreatePlant,
    @Inject(GET_PLANT) private readonly getPlant: GetPlant,
    @Inject(LIST_PLANTS) private readonly listPlants: ListPlants,
    @Inject(HTTP_EVENTS) private readonly events: HttpEvents,
  ) {}

  /** 200 for a new plant and for an identical retry alike (docs/http-api.md#duplicate-ids). */
  @Post()
  @HttpCode(200)
  @RequireScope('plants:write')
  @ApiOperation({
    operationId: 'createPlant',
    summary: 'Create a plant',
    description:
      'Creates a new plant in the store. The id is chosen by the client, so a create is safely retryable: the same id with the same name and tag answers 200 with the stored plant and writes nothing; the same id with different content answers 409.',
  })
  @ApiBearerAuth('bearerAuth')
  @ApiBody({
    type: NewPlantSchema,
    required: true,
    description: 'The plant to create.',
    examples: {
      plant: { summary: 'A plant with a tag', value: { id: 1, name: 'Monstera deliciosa', tag: 'tropical' } },
    },
  })
  @ApiOkResponse({
    description: 'Plant response (created, or an identical retry).',
    type: PlantSchema,
    example: { name: 'Monstera deliciosa', tag: 'tropical' },
  })
  @ApiFailures(400, 401, 403, 405, 408, 409, 413, 415, 429, 431, 500, 501, 503, 505)
  async create(@NewPlantBody() plant: Plant, @CurrentPrincipal() principal: Principal): Promise<PlantResponse> {
    const { outcome, plant: stored } = await this.createPlant.execute({ plant, createdByTokenId: principal.tokenId });
    this.events.plantOutcome(outcome);
    // The error filter answers a conflict with the catalogued 409, as it answers every failure.
    if (outcome === 'conflict') throw new PlantConflictError(plant.id);
    return toPlantResponse(stored);
  }

  /** The body is the create's answer; ids in the list are exact JSON numbers (plant-representation.ts). */
  @Get()
  @RequireScope('plants:read')
  @ApiOperation({
    operationId: 'listPlants',
    summary: 'List plants',
    description:
      'Plants ascending by id, a page at a time. A full page (exactly `limit` plants) carries a `Link` header with `rel="next"` to the following page, even when that page turns out empty; a shorter page is the last. Following `next` until it is absent returns every plant that existed when the walk began exactly once, whatever is created meanwhile. Ids are JSON numbers with exact int64 digits: read them with a parser that keeps big integers. Any query parameter other than these three is refused (40004).',
  })
  @ApiBearerAuth('bearerAuth')
  // Listed in the document bottom-up: tags, limit, after.
  @ApiQuery({
    name: 'after',
    required: false,
    schema: { type: 'integer', format: 'int64' },
    description:
      'Only plants with an id greater than this one: an int64 in canonical decimal form (`0`, or an optional `-` and digits without a leading zero). The `next` link carries it.',
  })
  @ApiQuery({
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
  })
  @ApiQuery({
    name: 'tags',
    required: false,
    style: 'form',
    explode: true,
    schema: { type: 'array', items: { type: 'string', minLength: 1, maxLength: PlantTag.MAX_CODE_POINTS } },
    description: 'Repeatable (`?tags=a&tags=b`): only plants whose tag equals one of them, exactly.',
  })
  @ApiOkResponse({
    description: 'A page of plants, ascending by id.',
    type: PlantListItemSchema,
    isArray: true,
    headers: {
      Link: {
        description:
          'RFC 8288: `</plants?limit=…&after=<last id>>; rel="next"` when the page is full; absent on a shorter page.',
        schema: { type: 'string' },
        example: '</plants?tags=tropical&limit=2&after=2>; rel="next"',
      },
    },
    example: [
      { id: 1, name: 'Monstera deliciosa', tag: 'tropical' },
      { id: 2, name: 'Ficus lyrata', tag: 'tropical' },
    ],
  })
  @ApiReadFailures('list')
  async list(@PlantPageQueryParam() query: PlantPageQuery, @Res() reply: FastifyReply): Promise<void> {
    const page = await this.listPlants.execute(query);
    if (page.next !== undefined) void reply.header('link', nextLink(page.next));
    await reply.code(200).header('content-type', JSON_UTF8).send(plantListBody(page.plants));
  }

  /** The create's answer, with a strong ETag; a matching If-None-Match is answered 304 without a body. */
  @Get(':id')
  @RequireScope('plants:read')
  @ApiOperation({
    operationId: 'getPlant',
    summary: 'Get a plant by id',
    description:
      'The plant exactly as the create answers it (`name`, and `tag` when it has one), with a strong `ETag`. Send that tag back in `If-None-Match` to get 304 without a body while the plant is unchanged.',
  })
  @ApiBearerAuth('bearerAuth')
  @ApiParam({
    name: 'id',
    type: 'integer',
    format: 'int64',
    description:
      'The plant id in canonical decimal form: `0`, or an optional `-` and digits without a leading zero, between -9223372036854775808 and 9223372036854775807 (`007`, `+5` and `1e2` are refused with 40004).',
    example: 1,
  })
  @ApiHeader({
    name: 'If-None-Match',
    required: false,
    description: 'An ETag from an earlier answer: 304 without a body when the plant still has it.',
  })
  @ApiOkResponse({
    description: 'The plant.',
    type: PlantSchema,
    headers: {
      ETag: {
        description: 'Strong entity tag of this answer (RFC 9110 §8.8.3).',
        schema: { type: 'string' },
        example: '"q2v2s1Dh6xqO3C3fF5y8JcWQHc9f0bUkvQ7o5qk8y4E"',
      },
    },
    example: { name: 'Monstera deliciosa', tag: 'tropical' },
  })
  @ApiResponse({ status: 304, description: 'Not modified: the ETag in If-None-Match is current. No body.' })
  @ApiReadFailures('get')
  async get(
    @Param('id', PlantIdPipe) id: PlantId,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const found = await this.getPlant.execute(id);
    if (found.outcome === 'not-found') throw new PlantNotFoundError(id);
    const body = plantBody(found.plant);
    const etag = strongEtag(body);
    void reply.header('etag', etag);
    if (matchesIfNoneMatch(ifNoneMatch, etag)) await reply.code(304).send();
    else await reply.code(200).header('content-type', JSON_UTF8).send(body);
  }
}
