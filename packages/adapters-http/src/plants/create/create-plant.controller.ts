import { Controller, HttpCode, Inject, Post, Res } from '@nestjs/common';
import {
  PlantConflictError,
  PlantIdRetiredError,
  type CreatePlant,
  type Plant,
  type Principal,
} from '@plantstore/domain';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal } from '../../auth/current-principal.decorator.js';
import { RequireScope } from '../../auth/require-scope.decorator.js';
import { sendError } from '../../errors/error-reply.js';
import { domainFailure } from '../../errors/failure-of.js';
import { CREATE_PLANT } from '../../ports/di-tokens.js';
import { HTTP_EVENTS, type HttpEvents } from '../../ports/http-events.js';
import { JSON_UTF8, plantBody } from '../plant-representation.js';
import { NewPlantBody } from './new-plant-body.decorator.js';

/** POST /plants (docs/http-api.md#post-plants). */
@Controller('plants')
export class CreatePlantController {
  constructor(
    @Inject(CREATE_PLANT) private readonly createPlant: CreatePlant,
    @Inject(HTTP_EVENTS) private readonly events: HttpEvents,
  ) {}

  /** 200 for a new plant and for an identical retry alike (docs/http-api.md#duplicate-ids). */
  @Post()
  @HttpCode(200)
  @RequireScope('plants:write')
  async create(
    @NewPlantBody() plant: Plant,
    @CurrentPrincipal() principal: Principal,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { outcome, plant: stored } = await this.createPlant.execute({ plant, createdByTokenId: principal.tokenId });
    this.events.plantOutcome(outcome);
    if (outcome === 'conflict') return sendError(reply, domainFailure(new PlantConflictError(plant.id)));
    if (outcome === 'retired') return sendError(reply, domainFailure(new PlantIdRetiredError(plant.id)));
    await reply.code(200).header('content-type', JSON_UTF8).send(plantBody(stored));
  }
}
