import { HttpException } from '@nestjs/common';
import {
  PlantConflictError,
  PlantNotFoundError,
  PlantQueryError,
  PlantValidationError,
  StorageUnavailableError,
} from '@plantstore/domain';
import { ApiError } from './api-error.js';
import { ErrorCode } from './error-codes.js';
import { Failures, type Failure } from './failures.js';

export interface ErrorResponse {
  readonly failure: Failure;
  /** True for failures the client cannot cause: log them with their details. */
  readonly unexpected: boolean;
}

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

/** Turns any thrown value into its entry of the Failures table (docs/errors.md). */
export function toErrorResponse(exception: unknown): ErrorResponse {
  if (exception instanceof ApiError) return expected(exception.failure);
  if (exception instanceof PlantValidationError)
    return expected({ code: ErrorCode.ValidationFailed, message: exception.message });
  if (exception instanceof PlantConflictError)
    return expected({ code: ErrorCode.PlantConflict, message: exception.message });
  if (exception instanceof PlantQueryError)
    return expected({ code: ErrorCode.InvalidParameter, message: exception.message });
  if (exception instanceof PlantNotFoundError)
    return expected({ code: ErrorCode.PlantNotFound, message: exception.message });
  if (exception instanceof StorageUnavailableError) return expected(Failures.storeUnavailable);
  if (exception instanceof HttpException) {
    const known = BY_STATUS[exception.getStatus()];
    if (known) return expected(known);
  }
  return { failure: Failures.internal, unexpected: true };
}

function expected(failure: Failure): ErrorResponse {
  return { failure, unexpected: false };
}
