import { ErrorCode } from './error-codes.js';

/** One non-2xx answer: the catalogued code, its message, and the headers that go with it. */
export interface Failure {
  readonly code: ErrorCode;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

const REALM = 'plantstore';
/** A parameter name is repeated in a message only when it is this plain: a token pasted as a name never is. */
const ECHOABLE_NAME = /^[A-Za-z0-9_.[\]-]{1,32}$/;
const RETRY_AFTER_HEADER = 'the time in the Retry-After header';

/**
 * Every Error body the HTTP adapter writes, by situation: the one table of codes, messages and
 * headers of docs/errors.md. Domain errors bring their own message (PlantValidationError,
 * PlantConflictError), and @plantstore/json-reader words what is wrong with a body's JSON.
 */
export const Failures = {
  malformedRequest: { code: ErrorCode.MalformedRequest, message: 'The HTTP request is malformed.' },
  malformedUrl: { code: ErrorCode.MalformedRequest, message: 'The request URL is malformed.' },
  missingHost: { code: ErrorCode.MalformedRequest, message: 'The HTTP request is malformed: it has no Host header.' },
  incompleteBody: { code: ErrorCode.MalformedRequest, message: 'The request body did not arrive completely.' },
  // RFC 6750 §3: no error attribute when no credentials were presented.
  missingToken: {
    code: ErrorCode.MissingToken,
    message: 'Send an API token in the Authorization header: "Authorization: Bearer <token>".',
    headers: { 'www-authenticate': `Bearer realm="${REALM}"` },
  },
  // RFC 6750 §3.1: a request that cannot be read as one credential is an invalid_request.
  repeatedAuthorization: {
    code: ErrorCode.MalformedRequest,
    message: 'Send exactly one Authorization header: "Authorization: Bearer <token>".',
    headers: { 'www-authenticate': `Bearer realm="${REALM}", error="invalid_request"` },
  },
  authenticationRequired: { code: ErrorCode.MissingToken, message: 'Authentication is required.' },
  invalidToken: {
    code: ErrorCode.InvalidToken,
    message: 'The bearer token is malformed, unknown, expired or revoked; ask an administrator for a valid token.',
    headers: { 'www-authenticate': `Bearer realm="${REALM}", error="invalid_token"` },
  },
  insufficientScope: (scope: string): Failure => ({
    code: ErrorCode.InsufficientScope,
    message: `This token lacks the "${scope}" scope needed for this operation.`,
    headers: { 'www-authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"` },
  }),
  forbidden: { code: ErrorCode.InsufficientScope, message: 'This token may not perform this operation.' },
  routeNotFound: {
    code: ErrorCode.RouteNotFound,
    message:
      'No such route. The API serves POST and GET /plants, GET /plants/changes, and GET, PUT and DELETE /plants/{id}.',
  },
  // RFC 9110 §13.1.1: If-Match names representations; none of those named is the plant's now.
  preconditionFailed: (id: string): Failure => ({
    code: ErrorCode.PreconditionFailed,
    message: `The plant with id ${id} is no longer the one If-Match names; read it again (its ETag), then decide.`,
  }),
  unknownQueryParameter: (name: string, known: readonly string[]): Failure => ({
    code: ErrorCode.InvalidParameter,
    message: `The request parameters are invalid: ${ECHOABLE_NAME.test(name) ? name : 'a parameter'} is not a query parameter of this operation (known: ${known.join(', ')}).`,
  }),
  repeatedQueryParameter: (name: string): Failure => ({
    code: ErrorCode.InvalidParameter,
    message: `The request parameters are invalid: ${name} must be given at most once.`,
  }),
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]): Failure => ({
    code: ErrorCode.MethodNotAllowed,
    message: `${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`,
    headers: { allow: allowed.join(', ') },
  }),
  // RFC 9110 §9.3.6: CONNECT asks for a tunnel, which only a proxy opens; no method is allowed on its target.
  connectNotAllowed: {
    code: ErrorCode.MethodNotAllowed,
    message: 'CONNECT is not allowed: this server is not a proxy. The API serves POST /plants.',
    headers: { allow: '' },
  },
  requestTimeout: { code: ErrorCode.RequestTimeout, message: 'The request took too long to arrive; send it again.' },
  payloadTooLarge: { code: ErrorCode.PayloadTooLarge, message: 'The request body is larger than the limit.' },
  bodyOverLimit: (limitBytes: number): Failure => ({
    code: ErrorCode.PayloadTooLarge,
    message: `The request body is larger than the limit of ${limitBytes} bytes.`,
  }),
  notJson: {
    code: ErrorCode.UnsupportedMediaType,
    message: 'Send the body as JSON with "Content-Type: application/json".',
  },
  contentCoded: (codings: readonly string[]): Failure => ({
    code: ErrorCode.UnsupportedMediaType,
    message: `Content-Encoding ${codings.join(', ')} is not supported; send the JSON body uncompressed.`,
  }),
  transferCodingNotImplemented: (codings: readonly string[]): Failure => ({
    code: ErrorCode.TransferCodingNotImplemented,
    message: `Transfer-Encoding ${codings.join(', ')} is not supported; send the body with chunked or a Content-Length.`,
  }),
  repeatedContentType: {
    code: ErrorCode.UnsupportedMediaType,
    message: 'Send exactly one Content-Type header: "Content-Type: application/json".',
  },
  tooManyRequests: { code: ErrorCode.RateLimited, message: `Too many requests; retry after ${RETRY_AFTER_HEADER}.` },
  tokenBudgetSpent: (retryAfterSeconds: number): Failure =>
    retryLater(
      `This token has used up its request budget for now; retry after ${RETRY_AFTER_HEADER}.`,
      retryAfterSeconds,
    ),
  authFailuresThrottled: (retryAfterSeconds: number): Failure =>
    retryLater(
      `Too many failed authentications from this address; retry after ${RETRY_AFTER_HEADER}.`,
      retryAfterSeconds,
    ),
  headersTooLarge: { code: ErrorCode.HeadersTooLarge, message: 'The request headers are too large.' },
  internal: {
    code: ErrorCode.Internal,
    message: 'An unexpected error occurred; it has been logged. Retry later or contact the operator.',
  },
  // RFC 9110 §15.6.6: an HTTP/1.x server refuses a major version it does not speak.
  httpVersionNotSupported: {
    code: ErrorCode.HttpVersionNotSupported,
    message: 'This server speaks HTTP/1.1 (and HTTP/1.0); send the request as HTTP/1.1.',
  },
  storeUnavailable: {
    code: ErrorCode.Unavailable,
    message: 'The plant store is temporarily unavailable; retry shortly.',
    headers: { 'retry-after': '1' },
  },
  serviceUnavailable: {
    code: ErrorCode.Unavailable,
    message: 'The service is temporarily unavailable; retry shortly.',
  },
  busy: {
    code: ErrorCode.Unavailable,
    message: `The server is busy; retry after ${RETRY_AFTER_HEADER}.`,
    headers: { 'retry-after': '1' },
  },
  overClientShare: {
    code: ErrorCode.RateLimited,
    message: `This client already has its share of the requests in progress; finish those, or retry after ${RETRY_AFTER_HEADER}.`,
    headers: { 'retry-after': '1' },
  },
  tooManyChangeStreams: {
    code: ErrorCode.Unavailable,
    message: `This server already serves as many change streams as it may; retry after ${RETRY_AFTER_HEADER}, or read the feed as JSON pages.`,
    headers: { 'retry-after': '5' },
  },
  shuttingDown: {
    code: ErrorCode.Unavailable,
    message: 'The server is shutting down; retry on another instance.',
    headers: { 'retry-after': '1' },
  },
} as const satisfies Record<string, Failure | ((...args: never[]) => Failure)>;

function retryLater(message: string, retryAfterSeconds: number): Failure {
  return { code: ErrorCode.RateLimited, message, headers: { 'retry-after': String(Math.max(1, retryAfterSeconds)) } };
}
