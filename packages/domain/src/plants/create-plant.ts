import type { Clock } from '../common/clock.js';
import { settleCreate, type SettledCreate } from './duplicate-ids.js';
import type { PlantRepository } from './plant-repository.js';
import { Plant } from './plant.js';

export interface CreatePlantCommand {
  /** Already parsed with `Plant.parse`: the driving adapter reports the violations itself. */
  readonly plant: Plant;
  readonly createdByTokenId?: string | undefined;
}

/**
 * `created`: the plant is stored. `replayed`: the same plant was already stored (a retried
 * request). `conflict`: the id is stored with another name or tag. `retired`: the id belonged
 * to a plant that was deleted, and is never used again (only a store that retires ids answers
 * it). Only `created` writes; `plant` is what the store holds for the id (see SettledCreate).
 */
export type CreatePlantResult = SettledCreate;

/** Creates a plant. The client-chosen id is a natural key, so a retry is safe. */
export class CreatePlant {
  constructor(
    private readonly plants: PlantRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Stores the plant unless its id is taken. Every outcome the store can decide (created,
   * replayed, conflict) is the result; only failures are thrown.
   * @throws {StorageUnavailableError} the repository cannot reach its store (from the port, unchanged).
   * @throws {TypeError} `command.plant` is not a Plant (parse input with `Plant.parse` first).
   */
  async execute(command: CreatePlantCommand): Promise<CreatePlantResult> {
    const { plant } = command;
    // Type-checked callers cannot get here; plain JavaScript callers can.
    if (!(plant instanceof Plant))
      throw new TypeError('CreatePlant takes a Plant: parse the input with Plant.parse first');
    const insert = await this.plants.insertIfAbsent(plant, {
      createdByTokenId: command.createdByTokenId,
      createdAt: this.clock.now(),
    });
    return settleCreate(plant, insert);
  }
}
