import { ErrorCode, statusOf } from './error-codes.js';

/** A failure of the HTTP layer itself (auth, media type, body), already in catalogue terms. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  get status(): number {
    return statusOf(this.code);
  }
}

export const REALM = 'plantstore';

/** RFC 6750 §3: no error attribute when no credentials were presented. */
export function missingTokenError(): ApiError {
  return new ApiError(ErrorCode.MissingToken, 'Send an API token in the Authorization header: "Authorization: Bearer <token>".', {
    'www-authenticate': `Bearer realm="${REALM}"`,
  });
}

export function invalidTokenError(): ApiError {
  return new ApiError(ErrorCode.InvalidToken, 'The bearer token is malformed, unknown, expired or revoked; ask an administrator for a valid token.', {
    'www-authenticate': `Bearer realm="${REALM}", error="invalid_token"`,
  });
}

export function insufficientScopeError(scope: string): ApiError {
  return new ApiError(ErrorCode.InsufficientScope, `This token lacks the "${scope}" scope needed for this operation.`, {
    'www-authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"`,
  });
}

export function rateLimitedError(retryAfterSeconds: number, message = 'Too many requests; retry after the time in the Retry-After header.'): ApiError {
  return new ApiError(ErrorCode.RateLimited, message, { 'retry-after': String(Math.max(1, retryAfterSeconds)) });
}
