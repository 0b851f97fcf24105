import type { Clock } from './clock.js';
import { PlantConflictError, PlantValidationError } from './errors.js';
import type { PlantRepository } from './plant-repository.js';
import { Plant, type NewPlantInput } from './plant.js';

export interface CreatePlantCommand {
  readonly plant: NewPlantInput | Plant;
  readonly createdByTokenId?: string | undefined;
}

export interface CreatePlantResult {
  readonly plant: Plant;
  /** `replayed`: the same plant was already stored (a retried request); nothing was written. */
  readonly outcome: 'created' | 'replayed';
}

/** Creates a plant. The client-chosen id is a natural key, so a retry is safe. */
export class CreatePlant {
  constructor(
    private readonly plants: PlantRepository,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreatePlantCommand): Promise<CreatePlantResult> {
    const plant = command.plant instanceof Plant ? command.plant : parseOrThrow(command.plant);
    const result = await this.plants.insertIfAbsent(plant, {
      createdByTokenId: command.createdByTokenId,
      createdAt: this.clock.now(),
    });
    if (result.inserted) return { plant, outcome: 'created' };
    if (result.existing.hasSameContentAs(plant)) return { plant: result.existing, outcome: 'replayed' };
    throw new PlantConflictError(plant.id);
  }
}

function parseOrThrow(input: NewPlantInput): Plant {
  const parsed = Plant.parse(input);
  if (!parsed.ok) throw new PlantValidationError(parsed.violations);
  return parsed.plant;
}
