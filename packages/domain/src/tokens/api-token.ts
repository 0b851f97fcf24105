import type { Scope } from './scope.js';

/** The shape a token is recognised by before any lookup: `pst_` and 32 random bytes, base64url. */
export const TOKEN_PREFIX = 'pst_';
const TOKEN_SHAPE = /^pst_[A-Za-z0-9_-]{43}$/;

/** True for `pst_` followed by 43 base64url characters: the only tokens AuthenticateToken looks up. */
export function hasTokenShape(candidate: string): boolean {
  return TOKEN_SHAPE.test(candidate);
}

/** What is known about a token. The plaintext is never kept: only `hash` is stored. */
export interface ApiToken {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly createdAt: Date;
  readonly expiresAt: Date | undefined;
  readonly revokedAt: Date | undefined;
}

export interface StoredApiToken extends ApiToken {
  readonly hash: string;
}

export type TokenState = 'active' | 'expired' | 'revoked';

/** Revoked wins over expired; both take effect at their exact instant. */
export function tokenStateAt(token: ApiToken, now: Date): TokenState {
  if (token.revokedAt !== undefined && token.revokedAt <= now) return 'revoked';
  if (token.expiresAt !== undefined && token.expiresAt <= now) return 'expired';
  return 'active';
}
