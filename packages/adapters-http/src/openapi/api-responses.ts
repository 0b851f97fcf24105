import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ChangesQuery, PlantPageQuery, PlantQueryError } from '@plantstore/domain';
import { ErrorCode, statusOf } from '../errors/error-codes.js';
import { Failures, type Failure } from '../errors/failures.js';
import { ErrorSchema } from './api-schemas.js';

type Header = { description: string; schema: { type: 'string' | 'integer' }; example: string | number };

const WWW_AUTHENTICATE: Record<string, Header> = {
  'WWW-Authenticate': {
    description: 'RFC 6750 challenge: `Bearer realm="plantstore"`, with `error="…"` when a token was refused.',
    schema: { type: 'string' },
    example: 'Bearer realm="plantstore", error="invalid_token"',
  },
};
const RETRY_AFTER: Record<string, Header> = {
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' }, example: 1 },
};
const ALLOW: Record<string, Header> = {
  Allow: { description: 'The methods the path accepts.', schema: { type: 'string' }, example: 'GET, HEAD, POST' },
};

interface DocumentedFailure {
  readonly description: string;
  readonly example: Failure;
  readonly headers?: Record<string, Header>;
}

const INVALID_ID: Failure = {
  code: ErrorCode.InvalidParameter,
  message:
    'The request parameters are invalid: id must be an integer between -9223372036854775808 and 9223372036854775807 in canonical decimal form (0, or an optional minus sign and digits without a leading zero; no plus sign, exponent or spaces).',
};
const INVALID_LIMIT: Failure = {
  code: ErrorCode.InvalidParameter,
  message: `The request parameters are invalid: limit must be a whole number from 1 to ${PlantPageQuery.MAX_LIMIT} in canonical decimal form (no sign, no leading zero).`,
};

const refusedCursor = ChangesQuery.parse({ after: 'not-a-cursor' });
const INVALID_CURSOR: Failure = {
  code: ErrorCode.InvalidParameter,
  message: new PlantQueryError(refusedCursor.ok ? [] : refusedCursor.violations).message,
};

const NO_SUCH_PLANT: DocumentedFailure = {
  description: 'No plant was ever created with this id (40402).',
  example: { code: ErrorCode.PlantNotFound, message: 'There is no plant with id 42.' },
};
const PLANT_DELETED: DocumentedFailure = {
  description: 'The plant with this id was deleted (41001); its id is never used again.',
  example: { code: ErrorCode.PlantDeleted, message: 'The plant with id 42 was deleted.' },
};
const STALE_IF_MATCH: DocumentedFailure = {
  description: '`If-Match` names no current representation of the plant (41201); nothing changed.',
  example: Failures.preconditionFailed('42'),
};
const ID_OR_FIELDS: DocumentedFailure = {
  description:
    'Malformed request, an id not in canonical int64 form (40004), or a body that is not valid JSON, not an object or has invalid fields (40000-40003).',
  example: INVALID_ID,
};

/** The answers of the operations on one plant and of the list that differ from the create's. */
const READ_FAILURES = {
  get: {
    400: {
      description: 'Malformed request, or an id not in canonical int64 form (40000, 40004).',
      example: INVALID_ID,
    },
    404: NO_SUCH_PLANT,
    410: PLANT_DELETED,
  },
  list: {
    400: {
      description: 'Malformed request, or a query parameter unknown, repeated or invalid (40000, 40004).',
      example: INVALID_LIMIT,
    },
  },
  changes: {
    400: {
      description:
        'Malformed request, a query parameter unknown, repeated or invalid, or a cursor (`after` or `Last-Event-ID`) this store cannot have issued (40000, 40004).',
      example: INVALID_CURSOR,
    },
    429: {
      description:
        'Rate limit exceeded, or the client already holds its MAX_REQUESTS_IN_FLIGHT_PER_CLIENT requests and streams in progress (42901).',
      example: Failures.overClientShare,
      headers: RETRY_AFTER,
    },
    503: {
      description:
        'Database unavailable, the server shutting down, or MAX_CHANGE_STREAMS streams already open on this instance (50301).',
      example: Failures.tooManyChangeStreams,
      headers: RETRY_AFTER,
    },
  },
} as const satisfies Record<string, Partial<Record<number, DocumentedFailure>>>;

/** The failures of PUT and DELETE /plants/{id}, in the statuses they add to or change from the create's. */
const CHANGE_FAILURES = {
  replace: { 400: ID_OR_FIELDS, 404: NO_SUCH_PLANT, 410: PLANT_DELETED, 412: STALE_IF_MATCH },
  remove: {
    400: { ...ID_OR_FIELDS, description: 'Malformed request, or an id not in canonical int64 form (40000, 40004).' },
    404: NO_SUCH_PLANT,
    412: STALE_IF_MATCH,
  },
} as const satisfies Record<string, Partial<Record<number, DocumentedFailure>>>;

/** Every non-2xx status an operation can answer, with what it means and a real body. */
const FAILURES = {
  400: {
    description: 'Malformed request, invalid JSON, not an object, or invalid fields (40000-40003).',
    example: Failures.missingHost,
  },
  401: {
    description: 'Missing or refused bearer token (40101, 40102).',
    example: Failures.invalidToken,
    headers: WWW_AUTHENTICATE,
  },
  403: {
    description:
      'The token lacks the scope the operation needs (40301): plants:write to create, change or delete, plants:read to read.',
    example: Failures.insufficientScope('plants:write'),
    headers: WWW_AUTHENTICATE,
  },
  405: {
    description: 'Method not allowed (40501).',
    example: Failures.methodNotAllowed('PUT', '/plants', ['GET', 'HEAD', 'POST']),
    headers: ALLOW,
  },
  408: { description: 'The request took too long to arrive (40801).', example: Failures.requestTimeout },
  409: {
    description:
      'The id exists with a different name or tag (40901), or belonged to a plant that was deleted: ids are never used again (40902).',
    example: {
      code: 40901,
      message: 'A plant with id 1 already exists with a different name or tag; choose another id.',
    },
  },
  413: { description: 'Body larger than the limit (41301).', example: Failures.bodyOverLimit(65_536) },
  415: { description: 'Content-Type is not JSON, or the body is content-coded (41501).', example: Failures.notJson },
  429: { description: 'Rate limit exceeded (42901).', example: Failures.tokenBudgetSpent(1), headers: RETRY_AFTER },
  431: { description: 'Request headers too large (43101).', example: Failures.headersTooLarge },
  500: { description: 'Unexpected internal failure (50001).', example: Failures.internal },
  501: {
    description: 'A Transfer-Encoding other than chunked (50101).',
    example: Failures.transferCodingNotImplemented(['gzip']),
  },
  503: {
    description: 'Database unavailable or the server shutting down (50301).',
    example: Failures.storeUnavailable,
    headers: RETRY_AFTER,
  },
  505: {
    description: 'An HTTP version other than 1.x in the request line (50501).',
    example: Failures.httpVersionNotSupported,
  },
} as const satisfies Record<number, DocumentedFailure>;

export type FailureStatus = keyof typeof FAILURES;

/** What any route can answer, whatever it does: a request without Host, too slow or with headers too large, of an HTTP version not spoken, or one arriving while the server drains. */
export const TRANSPORT_FAILURES = [400, 408, 431, 503, 505] as const satisfies readonly FailureStatus[];

/** Documents each status with the Error schema, its headers and an example body. */
export function ApiFailures(...statuses: FailureStatus[]): MethodDecorator & ClassDecorator {
  return documentFailures(statuses.map((status) => [status, FAILURES[status]]));
}

/** The failures of GET /plants/{id} (`get`), GET /plants (`list`) or GET /plants/changes (`changes`): routing aside, as the create's order has them. */
export function ApiReadFailures(operation: keyof typeof READ_FAILURES): MethodDecorator & ClassDecorator {
  const own: Partial<Record<number, DocumentedFailure>> = READ_FAILURES[operation];
  const statuses = [
    400,
    401,
    403,
    ...(operation === 'get' ? [404] : []),
    408,
    ...(operation === 'get' ? [410] : []),
    429,
    431,
    500,
    503,
  ] as const;
  return documentFailures(
    statuses.map((status) => [status, own[status] ?? FAILURES[status as FailureStatus]] as const),
  );
}

/** The failures of PUT (`replace`) or DELETE (`remove`) /plants/{id}, in the order of checks. */
export function ApiChangeFailures(operation: keyof typeof CHANGE_FAILURES): MethodDecorator & ClassDecorator {
  const own: Partial<Record<number, DocumentedFailure>> = CHANGE_FAILURES[operation];
  const statuses =
    operation === 'replace'
      ? ([400, 401, 403, 404, 408, 410, 412, 413, 415, 429, 431, 500, 501, 503] as const)
      : ([400, 401, 403, 404, 408, 412, 429, 431, 500, 503] as const);
  return documentFailures(
    statuses.map((status) => [status, own[status] ?? FAILURES[status as FailureStatus]] as const),
  );
}

function documentFailures(
  entries: ReadonlyArray<readonly [number, DocumentedFailure]>,
): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ErrorSchema),
    ...entries.map(([status, failure]) => {
      if (statusOf(failure.example.code) !== status)
        throw new Error(`the example of ${status} has code ${failure.example.code}`);
      return ApiResponse({
        status,
        description: failure.description,
        schema: { $ref: getSchemaPath(ErrorSchema) },
        example: { error: failure.example.code, message: failure.example.message },
        ...(failure.headers ? { headers: failure.headers } : {}),
      });
    }),
  );
}
