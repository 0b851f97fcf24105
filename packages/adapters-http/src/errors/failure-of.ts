import { HttpException } from '@nestjs/common';
import {
  PlantConflictError,
  PlantDeletedError,
  PlantIdRetiredError,
  PlantNotFoundError,
  PlantQueryError,
  PlantValidationError,
  StorageUnavailableError,
} from '@plantstore/domain';
import { ApiError } from './api-error.js';
import { ErrorCode } from './error-codes.js';
import { Failures, type Failure } from './failures.js';

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

/**
 * The entry of the Failures table (docs/errors.md) that answers a thrown value; undefined for
 * one the client cannot have caused (a bug, an unknown library error): log it, answer 500.
 */
export function failureOf(exception: unknown): Failure | undefined {
  if (exception instanceof ApiError) return exception.failure;
  if (exception instanceof PlantValidationError)
    return { code: ErrorCode.ValidationFailed, message: exception.message };
  if (exception instanceof PlantConflictError) return { code: ErrorCode.PlantConflict, message: exception.message };
  if (exception instanceof PlantQueryError) return { code: ErrorCode.InvalidParameter, message: exception.message };
  if (exception instanceof PlantNotFoundError) return { code: ErrorCode.PlantNotFound, message: exception.message };
  if (exception instanceof PlantIdRetiredError) return { code: ErrorCode.PlantIdRetired, message: exception.message };
  if (exception instanceof PlantDeletedError) return { code: ErrorCode.PlantDeleted, message: exception.message };
  if (exception instanceof StorageUnavailableError) return Failures.storeUnavailable;
  if (exception instanceof HttpException) {
    const known = BY_STATUS[exception.getStatus()];
    if (known) return known;
  }
  return undefined;
}
