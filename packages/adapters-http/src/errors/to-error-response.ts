import { HttpException } from '@nestjs/common';
import { PlantConflictError, PlantValidationError, StorageUnavailableError } from '@plantstore/domain';
import { ApiError } from './api-error.js';
import { ErrorCode, statusOf, type ErrorBody } from './error-codes.js';

export interface ErrorResponse {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Readonly<Record<string, string>>;
  /** True for failures the client cannot cause: log them with their details. */
  readonly unexpected: boolean;
}

// What a status raised by Nest, Fastify or a library means in catalogue terms.
const BY_STATUS: Readonly<Record<number, { code: ErrorCode; message: string }>> = {
  400: { code: ErrorCode.MalformedRequest, message: 'The HTTP request is malformed.' },
  401: { code: ErrorCode.MissingToken, message: 'Authentication is required.' },
  403: { code: ErrorCode.InsufficientScope, message: 'This token may not perform this operation.' },
  404: { code: ErrorCode.RouteNotFound, message: 'No such route. The API serves POST /plants.' },
  408: { code: ErrorCode.RequestTimeout, message: 'The request took too long to arrive; send it again.' },
  413: { code: ErrorCode.PayloadTooLarge, message: 'The request body is larger than the limit.' },
  415: { code: ErrorCode.UnsupportedMediaType, message: 'Send the body as JSON with "Content-Type: application/json".' },
  429: { code: ErrorCode.RateLimited, message: 'Too many requests; retry after the time in the Retry-After header.' },
  431: { code: ErrorCode.HeadersTooLarge, message: 'The request headers are too large.' },
  503: { code: ErrorCode.Unavailable, message: 'The service is temporarily unavailable; retry shortly.' },
};

const INTERNAL: ErrorBody = {
  error: ErrorCode.Internal,
  message: 'An unexpected error occurred; it has been logged. Retry later or contact the operator.',
};

/** The one table that turns any thrown value into the Error body of docs/errors.md. */
export function toErrorResponse(exception: unknown): ErrorResponse {
  if (exception instanceof ApiError) {
    return respond(exception.code, exception.message, exception.headers);
  }
  if (exception instanceof PlantValidationError) {
    return respond(ErrorCode.ValidationFailed, exception.message);
  }
  if (exception instanceof PlantConflictError) {
    return respond(ErrorCode.PlantConflict, exception.message);
  }
  if (exception instanceof StorageUnavailableError) {
    return respond(ErrorCode.Unavailable, 'The plant store is temporarily unavailable; retry shortly.', { 'retry-after': '1' });
  }
  if (exception instanceof HttpException) {
    const known = BY_STATUS[exception.getStatus()];
    if (known) return respond(known.code, known.message);
  }
  return { status: 500, body: INTERNAL, headers: {}, unexpected: true };
}

function respond(code: ErrorCode, message: string, headers: Readonly<Record<string, string>> = {}): ErrorResponse {
  return { status: statusOf(code), body: { error: code, message }, headers, unexpected: false };
}
