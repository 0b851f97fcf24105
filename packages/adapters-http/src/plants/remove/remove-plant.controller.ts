import { Controller, Delete, Headers, HttpCode, Inject, Param, Res } from '@nestjs/common';
import { PlantNotFoundError, type PlantId, type Principal, type RemovePlant } from '@plantstore/domain';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal } from '../../auth/current-principal.decorator.js';
import { RequireScope } from '../../auth/require-scope.decorator.js';
import { sendError } from '../../errors/error-reply.js';
import { domainFailure } from '../../errors/failure-of.js';
import { Failures } from '../../errors/failures.js';
import { REMOVE_PLANT } from '../../ports/di-tokens.js';
import { HTTP_EVENTS, type HttpEvents } from '../../ports/http-events.js';
import { PlantIdPipe } from '../plant-id.pipe.js';
import { preconditionOf } from '../plant-precondition.js';

/** DELETE /plants/{id} (docs/http-api.md#delete-plantsid). */
@Controller('plants')
export class RemovePlantController {
  constructor(
    @Inject(REMOVE_PLANT) private readonly removePlant: RemovePlant,
    @Inject(HTTP_EVENTS) private readonly events: HttpEvents,
  ) {}

  /** 204 for a plant deleted now or before; its id is retired for ever. */
  @Delete(':id')
  @HttpCode(204)
  @RequireScope('plants:write')
  async remove(
    @Param('id', PlantIdPipe) id: PlantId,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const result = await this.removePlant.execute({
      id,
      precondition: preconditionOf(ifMatch, id),
      removedByTokenId: principal.tokenId,
    });
    this.events.plantChanged({ operation: 'remove', outcome: result.outcome });
    if (result.outcome === 'not-found') return sendError(reply, domainFailure(new PlantNotFoundError(id)));
    if (result.outcome === 'precondition-failed') return sendError(reply, Failures.preconditionFailed(id.toString()));
    await reply.code(204).send();
  }
}
