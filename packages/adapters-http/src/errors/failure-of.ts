import { HttpException } from '@nestjs/common';
import {
  DomainError,
  type PlantConflictError,
  type PlantDeletedError,
  type PlantIdRetiredError,
  type PlantNotFoundError,
  type PlantQueryError,
  type PlantValidationError,
  type StorageUnavailableError,
} from '@plantstore/domain';
import { ApiError } from './api-error.js';
import { ErrorCode } from './error-codes.js';
import { Failures, type Failure } from './failures.js';

/** The domain errors HTTP answers; any other (a token administration error) cannot reach it, and would be a 500. */
export type AnsweredDomainError =
  | PlantValidationError
  | PlantQueryError
  | PlantNotFoundError
  | PlantConflictError
  | PlantIdRetiredError
  | PlantDeletedError
  | StorageUnavailableError;

/**
 * The one table from a domain error's stable `code` to its answer (docs/errors.md): the
 * catalogue code, with the domain's message, written for the client; or a Failure of its own
 * where the domain's words are the operator's (a store failure's reason goes to the log).
 */
const BY_DOMAIN_CODE: { readonly [Code in AnsweredDomainError['code']]: ErrorCode | Failure } = {
  PLANT_INVALID: ErrorCode.ValidationFailed,
  PLANT_QUERY_INVALID: ErrorCode.InvalidParameter,
  PLANT_NOT_FOUND: ErrorCode.PlantNotFound,
  PLANT_CONFLICT: ErrorCode.PlantConflict,
  PLANT_ID_RETIRED: ErrorCode.PlantIdRetired,
  PLANT_DELETED: ErrorCode.PlantDeleted,
  STORAGE_UNAVAILABLE: Failures.storeUnavailable,
};

// What a status raised by Nest, Fastify or a library means in catalogue terms.
const BY_STATUS: Readonly<Record<number, Failure>> = {
  400: Failures.malformedRequest,
  401: Failures.authenticationRequired,
  403: Failures.forbidden,
  404: Failures.routeNotFound,
  408: Failures.requestTimeout,
  413: Failures.payloadTooLarge,
  415: Failures.notJson,
  429: Failures.tooManyRequests,
  431: Failures.headersTooLarge,
  503: Failures.serviceUnavailable,
};

/** The answer to a domain error, by its code: how a handler answers an outcome that refuses the request. */
export function domainFailure(error: AnsweredDomainError): Failure {
  const answer = BY_DOMAIN_CODE[error.code];
  return typeof answer === 'number' ? { code: answer, message: error.message } : answer;
}

/**
 * The entry of the Failures table (docs/errors.md) that answers a thrown value; undefined for
 * one the client cannot have caused (a bug, an unknown library error): log it, answer 500.
 */
export function failureOf(exception: unknown): Failure | undefined {
  if (exception instanceof ApiError) return exception.failure;
  if (exception instanceof DomainError) return isAnswered(exception) ? domainFailure(exception) : undefined;
  if (exception instanceof HttpException) return BY_STATUS[exception.getStatus()];
  return undefined;
}

function isAnswered(error: DomainError): error is AnsweredDomainError {
  return Object.hasOwn(BY_DOMAIN_CODE, error.code);
}
