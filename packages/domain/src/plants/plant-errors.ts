import { DomainError } from '../common/errors.js';
import { describeViolations, type FieldViolation } from '../common/field-violation.js';
import type { PlantId } from './plant-id.js';

/** The message is the one a client sees, whether the plant came over HTTP or from an import file. */
export class PlantValidationError extends DomainError {
  readonly code = 'PLANT_INVALID';
  constructor(readonly violations: readonly FieldViolation[]) {
    super(`The plant is invalid: ${describeViolations(violations)}.`);
  }
}

/**
 * The id is taken by a plant with another name or tag; the stored plant is unchanged. CreatePlant
 * answers this as its `conflict` outcome; the error (and its message) is for the adapter that
 * turns that outcome into a failure, and for ImportPlants' rejections.
 */
export class PlantConflictError extends DomainError {
  readonly code = 'PLANT_CONFLICT';
  constructor(readonly id: PlantId) {
    super(`A plant with id ${id.toString()} already exists with a different name or tag; choose another id.`);
  }
}

/** No plant is stored under the id asked for: GetPlant's `not-found` outcome, as an error for adapters. */
export class PlantNotFoundError extends DomainError {
  readonly code = 'PLANT_NOT_FOUND';
  constructor(readonly id: PlantId) {
    super(`There is no plant with id ${id.toString()}.`);
  }
}

/** A read was asked with parameters the rules refuse (an id not in canonical form, a limit out of range, …). */
export class PlantQueryError extends DomainError {
  readonly code = 'PLANT_QUERY_INVALID';
  constructor(readonly violations: readonly FieldViolation[]) {
    super(`The request parameters are invalid: ${describeViolations(violations)}.`);
  }
}

/**
 * The id belonged to a plant that was deleted: ids are never used again, so a create with it
 * (even a late retry of the create that made that plant) is refused, whatever its content.
 */
export class PlantIdRetiredError extends DomainError {
  readonly code = 'PLANT_ID_RETIRED';
  constructor(readonly id: PlantId) {
    super(
      `The id ${id.toString()} belonged to a plant that was deleted, and ids are never used again; choose another id.`,
    );
  }
}

/** The plant asked for was deleted: ChangePlant's and GetPlant's `deleted` outcome, as an error for adapters. */
export class PlantDeletedError extends DomainError {
  readonly code = 'PLANT_DELETED';
  constructor(readonly id: PlantId) {
    super(`The plant with id ${id.toString()} was deleted.`);
  }
}
