import { DomainError } from '../common/errors.js';

/** No token has the id: RevokeToken's `not-found` outcome, as an error for adapters. */
export class TokenNotFoundError extends DomainError {
  readonly code = 'TOKEN_NOT_FOUND';
  constructor(readonly tokenId: string) {
    super(`no API token with id ${tokenId}`);
  }
}

/** IssueToken was asked for something the token rules refuse (name, scope, lifetime). */
export class InvalidTokenRequestError extends DomainError {
  readonly code = 'TOKEN_REQUEST_INVALID';

  constructor(message: string) {
    super(message);
  }
}

/**
 * The TokenSecrets given to IssueToken made a token AuthenticateToken would refuse as
 * malformed: a wiring mistake, found before anything is stored. The token is not quoted.
 */
export class TokenSecretsMisconfiguredError extends DomainError {
  readonly code = 'TOKEN_SECRETS_MISCONFIGURED';

  constructor() {
    super(
      'TokenSecrets.generateToken() made a token of the wrong shape: it must be "pst_" and 43 base64url characters (32 random bytes, unpadded)',
    );
  }
}
