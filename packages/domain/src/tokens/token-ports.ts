import type { ApiToken, StoredApiToken } from './api-token.js';

/**
 * Randomness and one-way hashing for tokens; the domain states the rules, an adapter the
 * crypto. Nothing here needs Node: `webCryptoTokenSecrets` implements it with Web Crypto.
 */
export interface TokenSecrets {
  /**
   * A fresh token: TOKEN_PREFIX followed by 32 random bytes in base64url without padding
   * (`hasTokenShape` is true). IssueToken refuses any other shape before storing anything.
   */
  generateToken(): string;
  /** A fresh unique token id, safe to print and to type (at most 64 characters). */
  generateId(): string;
  /**
   * The stored form of a token: the lowercase hex SHA-256 digest of its UTF-8 bytes. A
   * promise, because Web Crypto's digest is asynchronous; the same input always gives the
   * same digest, on every instance sharing a store.
   */
  hash(token: string): Promise<string>;
}

/**
 * Where tokens are kept. Implementations throw StorageUnavailableError when the store cannot
 * be reached. `@plantstore/domain/testing` holds a contract suite that checks all of this.
 */
export interface TokenRepository {
  /** Stores a new token. Rejects when a token with the same id or the same hash is already stored. */
  add(token: StoredApiToken): Promise<void>;
  /** The token with this hash, every field as it was added (an absent date stays `undefined`), or undefined. */
  findByHash(hash: string): Promise<StoredApiToken | undefined>;
  /** Every token, oldest first (by createdAt, then id), never with its hash. */
  list(): Promise<ApiToken[]>;
  /**
   * Marks the token revoked at `at`; false when no such token exists. Revoking twice keeps
   * the first time, also when two revocations race.
   */
  revoke(id: string, at: Date): Promise<boolean>;
}
