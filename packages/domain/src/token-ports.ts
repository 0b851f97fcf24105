import type { ApiToken, StoredApiToken } from './api-token.js';

/** Randomness and one-way hashing for tokens; the domain states the rules, an adapter the crypto. */
export interface TokenSecrets {
  /** A fresh token: TOKEN_PREFIX followed by 32 random bytes in base64url. */
  generateToken(): string;
  /** A fresh unique token id, safe to print and to type. */
  generateId(): string;
  /** The stored form of a token: a hex SHA-256 digest. */
  hash(token: string): string;
}

export interface TokenRepository {
  add(token: StoredApiToken): Promise<void>;
  findByHash(hash: string): Promise<StoredApiToken | undefined>;
  list(): Promise<ApiToken[]>;
  /** Marks the token revoked at `at`; false when no such token exists. Revoking twice keeps the first time. */
  revoke(id: string, at: Date): Promise<boolean>;
}
