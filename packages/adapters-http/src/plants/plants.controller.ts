import { Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Put, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  PlantConflictError,
  PlantDeletedError,
  PlantIdRetiredError,
  PlantNotFoundError,
  type ChangePlant,
  type CreatePlant,
  type GetPlant,
  type ListPlants,
  type Plant,
  type PlantId,
  type PlantPageQuery,
  type PlantPrecondition,
  type Principal,
  type RemovePlant,
} from '@plantstore/domain';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import { RequireScope } from '../auth/require-scope.decorator.js';
import { ApiError } from '../errors/api-error.js';
import { Failures } from '../errors/failures.js';
import { ifMatchCondition } from '../http/entity-tags.js';
import { PLANTS_TAG } from '../openapi/openapi-document.js';
import {
  DocumentCreatePlant,
  DocumentDeletePlant,
  DocumentGetPlant,
  DocumentListPlants,
  DocumentReplacePlant,
} from '../openapi/plant-operations.js';
import { CHANGE_PLANT, CREATE_PLANT, GET_PLANT, LIST_PLANTS, REMOVE_PLANT } from '../ports/di-tokens.js';
import { HTTP_EVENTS, type HttpEvents } from '../ports/http-events.js';
import { NewPlantBody, PlantReplacementBody } from './plant-body.decorator.js';
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

/**
 * The plant routes: each turns its request into a use case's command and its outcome into an
 * answer; the error filter answers what is thrown. What each documents: openapi/plant-operations.ts.
 */
@ApiTags(PLANTS_TAG)
@Controller('plants')
export class PlantsController {
  constructor(
    @Inject(CREATE_PLANT) private readonly createPlant: CreatePlant,
    @Inject(GET_PLANT) private readonly getPlant: GetPlant,
    @Inject(LIST_PLANTS) private readonly listPlants: ListPlants,
    @Inject(CHANGE_PLANT) private readonly changePlant: ChangePlant,
    @Inject(REMOVE_PLANT) private readonly removePlant: RemovePlant,
    @Inject(HTTP_EVENTS) private readonly events: HttpEvents,
  ) {}

  /** 200 for a new plant and for an identical retry alike (docs/http-api.md#duplicate-ids). */
  @Post()
  @HttpCode(200)
  @RequireScope('plants:write')
  @DocumentCreatePlant()
  async create(@NewPlantBody() plant: Plant, @CurrentPrincipal() principal: Principal): Promise<PlantResponse> {
    const { outcome, plant: stored } = await this.createPlant.execute({ plant, createdByTokenId: principal.tokenId });
    this.events.plantOutcome(outcome);
    if (outcome === 'conflict') throw new PlantConflictError(plant.id);
    if (outcome === 'retired') throw new PlantIdRetiredError(plant.id);
    return toPlantResponse(stored);
  }

  /** The body is the create's answer; ids in the list are exact JSON numbers (plant-representation.ts). */
  @Get()
  @RequireScope('plants:read')
  @DocumentListPlants()
  async list(@PlantPageQueryParam() query: PlantPageQuery, @Res() reply: FastifyReply): Promise<void> {
    const page = await this.listPlants.execute(query);
    if (page.next !== undefined) void reply.header('link', nextLink(page.next));
    await reply.code(200).header('content-type', JSON_UTF8).send(plantListBody(page.plants));
  }

  /** The create's answer, with a strong ETag; a matching If-None-Match is answered 304 without a body. */
  @Get(':id')
  @RequireScope('plants:read')
  @DocumentGetPlant()
  async get(
    @Param('id', PlantIdPipe) id: PlantId,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const found = await this.getPlant.execute(id);
    if (found.outcome === 'not-found') throw new PlantNotFoundError(id);
    if (found.outcome === 'deleted') throw new PlantDeletedError(id);
    const body = plantBody(found.plant);
    const etag = strongEtag(body);
    void reply.header('etag', etag);
    if (matchesIfNoneMatch(ifNoneMatch, etag)) await reply.code(304).send();
    else await reply.code(200).header('content-type', JSON_UTF8).send(body);
  }

  /** The plant as now stored, with its ETag (docs/http-api.md#changing-and-deleting-plants). */
  @Put(':id')
  @RequireScope('plants:write')
  @DocumentReplacePlant()
  async replace(
    @PlantReplacementBody() plant: Plant,
    @Headers('if-match') ifMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const result = await this.changePlant.execute({ plant, precondition: preconditionOf(ifMatch) });
    this.events.plantChanged({ operation: 'replace', outcome: result.outcome });
    if (result.outcome === 'not-found') throw new PlantNotFoundError(plant.id);
    if (result.outcome === 'deleted') throw new PlantDeletedError(plant.id);
    if (result.outcome === 'precondition-failed') throw new ApiError(Failures.preconditionFailed(plant.id.toString()));
    const body = plantBody(result.plant);
    await reply.code(200).header('etag', strongEtag(body)).header('content-type', JSON_UTF8).send(body);
  }

  /** 204 for a plant deleted now or before; its id is retired for ever. */
  @Delete(':id')
  @HttpCode(204)
  @RequireScope('plants:write')
  @DocumentDeletePlant()
  async remove(
    @Param('id', PlantIdPipe) id: PlantId,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    const result = await this.removePlant.execute({
      id,
      precondition: preconditionOf(ifMatch),
      removedByTokenId: principal.tokenId,
    });
    this.events.plantChanged({ operation: 'remove', outcome: result.outcome });
    if (result.outcome === 'not-found') throw new PlantNotFoundError(id);
    if (result.outcome === 'precondition-failed') throw new ApiError(Failures.preconditionFailed(id.toString()));
  }
}

/** If-Match as a precondition on the stored plant: its ETag (of the body a GET answers) must be one named. */
function preconditionOf(ifMatch: string | undefined): PlantPrecondition | undefined {
  const matches = ifMatchCondition(ifMatch);
  return matches === undefined ? undefined : (current) => matches(strongEtag(plantBody(current)));
}
