import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { PlantConflictError, type CreatePlant, type CreatePlantResult, type Plant, type Principal } from '@plantstore/domain';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import { RequireScope } from '../auth/require-scope.decorator.js';
import { PlantStoreMetrics } from '../observability/plant-store-metrics.js';
import { CREATE_PLANT } from '../tokens.js';
import { NewPlantBody } from './new-plant-body.decorator.js';
import { toPlantResponse, type PlantResponse } from './plant.response.js';

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
