/** The catalogue of docs/errors.md: stable codes whose first three digits are the HTTP status. */
export const ErrorCode = {
  MalformedRequest: 40000,
  InvalidJson: 40001,
  NotAnObject: 40002,
  ValidationFailed: 40003,
  InvalidParameter: 40004,
  MissingToken: 40101,
  InvalidToken: 40102,
  InsufficientScope: 40301,
  RouteNotFound: 40401,
  PlantNotFound: 40402,
  MethodNotAllowed: 40501,
  RequestTimeout: 40801,
  PlantConflict: 40901,
  PlantIdRetired: 40902,
  PlantDeleted: 41001,
  PreconditionFailed: 41201,
  PayloadTooLarge: 41301,
  UnsupportedMediaType: 41501,
  RateLimited: 42901,
  HeadersTooLarge: 43101,
  Internal: 50001,
  TransferCodingNotImplemented: 50101,
  Unavailable: 50301,
  HttpVersionNotSupported: 50501,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * When each code is answered, in the words of docs/errors.md: the OpenAPI document's table is
 * made from this list, and a test holds the catalogue in docs/errors.md to it, row for row.
 */
export const ERROR_CATALOGUE: readonly { readonly code: ErrorCode; readonly when: string }[] = [
  {
    code: ErrorCode.MalformedRequest,
    when: 'malformed HTTP request, rejected by the HTTP parser; an undecodable URL; two `Authorization` headers',
  },
  {
    code: ErrorCode.InvalidJson,
    when: 'body empty, not UTF-8, or not valid JSON; an object repeats a key with a different value (I-JSON, RFC 7493)',
  },
  { code: ErrorCode.NotAnObject, when: 'body is valid JSON but not an object' },
  {
    code: ErrorCode.ValidationFailed,
    when: 'field validation failed; every problem is listed in `message`, each naming its field',
  },
  {
    code: ErrorCode.InvalidParameter,
    when: 'a path or query parameter is invalid, unknown or repeated (`/plants/{id}`, `GET /plants`), or a feed cursor this store cannot have issued (`after`, `Last-Event-ID`); `message` names it and the rule',
  },
  {
    code: ErrorCode.MissingToken,
    when: 'no bearer token in the `Authorization` header (absent, another scheme, or `Bearer` with nothing after it)',
  },
  { code: ErrorCode.InvalidToken, when: 'token malformed, unknown, expired or revoked' },
  {
    code: ErrorCode.InsufficientScope,
    when: 'token valid but lacks the scope (`plants:write` to create, change or delete, `plants:read` to read or list)',
  },
  { code: ErrorCode.RouteNotFound, when: 'no such route' },
  {
    code: ErrorCode.PlantNotFound,
    when: 'no plant with that id was ever created (`GET`, `PUT`, `DELETE /plants/{id}`): "There is no plant with id N."',
  },
  {
    code: ErrorCode.MethodNotAllowed,
    when: 'the path exists, the method does not (`Allow` lists the methods); `CONNECT` (no proxy here: `Allow` is empty, the connection closes)',
  },
  { code: ErrorCode.RequestTimeout, when: 'the request did not fully arrive in time' },
  { code: ErrorCode.PlantConflict, when: 'the id exists with a different name or tag' },
  {
    code: ErrorCode.PlantIdRetired,
    when: 'the id belonged to a plant that was deleted: ids are never used again, whatever the body (`POST /plants`)',
  },
  { code: ErrorCode.PlantDeleted, when: 'the plant with that id was deleted (`GET`, `PUT /plants/{id}`)' },
  {
    code: ErrorCode.PreconditionFailed,
    when: '`If-Match` names no current representation of the plant (`PUT`, `DELETE /plants/{id}`); nothing changed',
  },
  { code: ErrorCode.PayloadTooLarge, when: 'body larger than the limit (declared or streamed)' },
  {
    code: ErrorCode.UnsupportedMediaType,
    when: '`Content-Type` missing, not JSON, or with a charset other than UTF-8; a body with a `Content-Encoding` (gzip, br…): send it uncompressed',
  },
  {
    code: ErrorCode.RateLimited,
    when: 'rate limit exceeded, or this client already holds its share of the requests in progress; `Retry-After` says when to try again',
  },
  { code: ErrorCode.HeadersTooLarge, when: 'request headers too large' },
  { code: ErrorCode.Internal, when: 'unexpected internal failure (details only in the server log)' },
  {
    code: ErrorCode.TransferCodingNotImplemented,
    when: 'a `Transfer-Encoding` other than `chunked` (RFC 9112 §6.1)',
  },
  {
    code: ErrorCode.Unavailable,
    when: 'database unavailable (`Retry-After: 1`), the server is shutting down, or `MAX_CHANGE_STREAMS` change streams are open (`Retry-After: 5`)',
  },
  {
    code: ErrorCode.HttpVersionNotSupported,
    when: 'an HTTP version other than 1.x in the request line (`HTTP/2.0` as text, `HTTP/0.9`); the connection closes',
  },
];

export function statusOf(code: ErrorCode): number {
  return Math.floor(code / 100);
}

/** The body of every non-2xx response. */
export interface ErrorBody {
  readonly error: ErrorCode;
  readonly message: string;
}
