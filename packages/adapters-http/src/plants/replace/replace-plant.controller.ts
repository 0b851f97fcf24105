import { Controller, Headers, Inject, Put, Res } from '@nestjs/common';
import { PlantDeletedError, PlantNotFoundError, type ChangePlant, type Plant } from '@plantstore/domain';
import type { FastifyReply } from 'fastify';
import { RequireScope } from '../../auth/require-scope.decorator.js';
import { sendError } from '../../errors/error-reply.js';
import { domainFailure } from '../../errors/failure-of.js';
import { Failures } from '../../errors/failures.js';
import { CHANGE_PLANT } from '../../ports/di-tokens.js';
import { HTTP_EVENTS, type HttpEvents } from '../../ports/http-events.js';
import { preconditionOf } from '../plant-precondition.js';
import { JSON_UTF8, plantBody, versionTag } from '../plant-representation.js';
import { PlantReplacementBody } from './plant-replacement-body.decorator.js';

/** PUT /plants/{id} (docs/http-api.md#put-plantsid). */
@Controller('plants')
export class ReplacePlantController {
  constructor(
    @Inject(CHANGE_PLANT) private readonly changePlant: ChangePlant,
    @Inject(HTTP_EVENTS) private readonly events: HttpEvents,
  ) {}

  /** The plant as now stored, with its ETag (docs/http-api.md#changing-and-deleting-plants). */
  @Put(':id')
  @RequireScope('plants:write')
  async replace(
    @PlantReplacementBody() plant: Plant,
    @Headers('if-match') ifMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const result = await this.changePlant.execute({ plant, precondition: preconditionOf(ifMatch, plant.id) });
    this.events.plantChanged({ operation: 'replace', outcome: result.outcome });
    if (result.outcome === 'not-found') return sendError(reply, domainFailure(new PlantNotFoundError(plant.id)));
    if (result.outcome === 'deleted') return sendError(reply, domainFailure(new PlantDeletedError(plant.id)));
    if (result.outcome === 'precondition-failed')
      return sendError(reply, Failures.preconditionFailed(plant.id.toString()));
    await reply
      .code(200)
      .header('etag', versionTag(plant.id, result.version))
      .header('content-type', JSON_UTF8)
      .send(plantBody(result.plant));
  }
}
