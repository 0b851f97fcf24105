import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  PlantConflictError,
  type CreatePlant,
  type CreatePlantResult,
  type Plant,
  type Principal,
} from '@plantstore/domain';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import { RequireScope } from '../auth/require-scope.decorator.js';
import { PlantStoreMetrics } from '../observability/plant-store-metrics.js';
import { CREATE_PLANT } from '../tokens.js';
import { ApiFailures } from '../openapi/api-responses.js';
import { NewPlantSchema, PlantSchema } from '../openapi/api-schemas.js';
import { PLANTS_TAG } from '../openapi/openapi-document.js';
import { NewPlantBody } from './new-plant-body.decorator.js';
import { toPlantResponse, type PlantResponse } from './plant.response.js';

@ApiTags(PLANTS_TAG)
@Controller('plants')
export class PlantsController {
  constructor(
    @Inject(CREATE_PLANT) private readonly createPlant: CreatePlant,
    private readonly metrics: PlantStoreMetrics,
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
    const result = await this.countedCreate(plant, principal);
    return toPlantResponse(result.plant);
  }

  /** Every outcome of a create is counted here: created, replayed, or a conflict (which the error filter answers). */
  private async countedCreate(plant: Plant, principal: Principal): Promise<CreatePlantResult> {
    try {
      const result = await this.createPlant.execute({ plant, createdByTokenId: principal.tokenId });
      this.metrics.plantOutcome(result.outcome);
      return result;
    } catch (error) {
      if (error instanceof PlantConflictError) this.metrics.plantOutcome('conflict');
      throw error;
    }
  }
}
