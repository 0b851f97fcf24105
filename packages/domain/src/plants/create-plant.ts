import type { Clock } from '../common/clock.js';
import { PlantConflictError } from './plant-errors.js';
import type { PlantRepository } from './plant-repository.js';
import { Plant } from './plant.js';

export interface CreatePlantCommand {
  /** Already parsed with `Plant.parse`: the driving adapter reports the violations itself. */
  readonly plant: Plant;
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

  /**
   * Stores the plant, or finds it already stored with the same name and tag (`replayed`:
   * the stored plant is returned and nothing is written).
   * @throws {PlantConflictError} the id is stored with another name or tag; nothing is written.
   * @throws {StorageUnavailableError} the repository cannot reach its store (from the port, unchanged).
   * @throws {TypeError} `command.plant` is not a Plant (parse input with `Plant.parse` first).
   */
  async execute(command: CreatePlantCommand): Promise<CreatePlantResult> {
    const { plant } = command;
    // Type-checked callers cannot get here; plain JavaScript callers can.
    if (!(plant instanceof Plant))
      throw new TypeError('CreatePlant takes a Plant: parse the input with Plant.parse first');
    const result = await this.plants.insertIfAbsent(plant, {
      createdByTokenId: command.createdByTokenId,
      createdAt: this.clock.now(),
    });
    if (result.inserted) return { plant, outcome: 'created' };
    if (result.existing.hasSameContentAs(plant)) return { plant: result.existing, outcome: 'replayed' };
    throw new PlantConflictError(plant.id);
  }
}
