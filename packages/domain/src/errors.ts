import { describeViolations, type FieldViolation } from './field-violation.js';
import type { PlantId } from './plant-id.js';

/** Base of every failure the domain reports; `code` is stable and transport-neutral. */
export abstract class DomainError extends Error {
  abstract readonly code: string;

  constructor(message?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The message is the one a client sees, whether the plant came over HTTP or from an import file. */
export class PlantValidationError extends DomainError {
  readonly code = 'PLANT_INVALID';
  constructor(readonly violations: readonly FieldViolation[]) {
    super(`The plant is invalid: ${describeViolations(violations)}.`);
  }
}

export class PlantConflictError extends DomainError {
  readonly code = 'PLANT_CONFLICT';
  constructor(readonly id: PlantId) {
    super(`A plant with id ${id} already exists with a different name or tag; choose another id.`);
  }
}

/** A port could not reach its backing store; retrying later may succeed. */
export class StorageUnavailableError extends DomainError {
  readonly code = 'STORAGE_UNAVAILABLE';
  constructor(message = 'the plant store is temporarily unavailable', options?: { cause?: unknown }) {
    super(message, options);
  }
}

export class TokenNotFoundError extends DomainError {
  readonly code = 'TOKEN_NOT_FOUND';
  constructor(readonly tokenId: string) {
    super(`no API token with id ${tokenId}`);
  }
}

export class InvalidTokenRequestError extends DomainError {
  readonly code = 'TOKEN_REQUEST_INVALID';

  constructor(message: string) {
    super(message);
  }
}
