import { Controller, Get, Headers, Inject, Param, Res } from '@nestjs/common';
import { PlantDeletedError, PlantNotFoundError, type GetPlant, type PlantId } from '@plantstore/domain';
import type { FastifyReply } from 'fastify';
import { RequireScope } from '../../auth/require-scope.decorator.js';
import { sendError } from '../../errors/error-reply.js';
import { domainFailure } from '../../errors/failure-of.js';
import { matchesIfNoneMatch } from '../../http/entity-tags.js';
import { GET_PLANT } from '../../ports/di-tokens.js';
import { PlantIdPipe } from '../plant-id.pipe.js';
import { JSON_UTF8, plantBody, versionTag } from '../plant-representation.js';

/** GET /plants/{id} (docs/http-api.md#get-plantsid). */
@Controller('plants')
export class GetPlantController {
  constructor(@Inject(GET_PLANT) private readonly getPlant: GetPlant) {}

  /** The create's answer, with a strong ETag; a matching If-None-Match is answered 304 without a body. */
  @Get(':id')
  @RequireScope('plants:read')
  async get(
    @Param('id', PlantIdPipe) id: PlantId,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const found = await this.getPlant.execute(id);
    if (found.outcome === 'not-found') return sendError(reply, domainFailure(new PlantNotFoundError(id)));
    if (found.outcome === 'deleted') return sendError(reply, domainFailure(new PlantDeletedError(id)));
    const etag = versionTag(id, found.version);
    void reply.header('etag', etag);
    if (matchesIfNoneMatch(ifNoneMatch, etag)) await reply.code(304).send();
    else await reply.code(200).header('content-type', JSON_UTF8).send(plantBody(found.plant));
  }
}
