/** The catalogue of docs/errors.md: stable codes whose first three digits are the HTTP status. */
export const ErrorCode = {
  MalformedRequest: 40000,
  InvalidJson: 40001,
  NotAnObject: 40002,
  ValidationFailed: 40003,
  MissingToken: 40101,
  InvalidToken: 40102,
  InsufficientScope: 40301,
  RouteNotFound: 40401,
  MethodNotAllowed: 40501,
  RequestTimeout: 40801,
  PlantConflict: 40901,
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

export function statusOf(code: ErrorCode): number {
  return Math.floor(code / 100);
}

/** The body of every non-2xx response. */
export interface ErrorBody {
  readonly error: ErrorCode;
  readonly message: string;
}
