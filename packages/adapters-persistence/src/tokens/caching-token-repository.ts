import {
  REVOCATION_BOUND_MS,
  type ApiToken,
  type Clock,
  type StoredApiToken,
  type TokenRepository,
} from '@plantstore/domain';

/**
 * A read-through cache over any TokenRepository: remembers tokens found by hash for at most
 * `ttlMs`, which the domain's revocation bound caps, so a busy token is not read from the
 * store on every request. Revocation therefore takes effect within `ttlMs` plus one request;
 * expiry stays exact because it is checked against the clock at every use. Only tokens that
 * exist are cached: unknown hashes always ask the store, and cannot fill the cache.
 */
export class CachingTokenRepository implements TokenRepository {
  private readonly entries = new Map<string, { token: StoredApiToken; fetchedAt: number }>();

  constructor(
    private readonly store: TokenRepository,
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {
    if (ttlMs < 0 || ttlMs > REVOCATION_BOUND_MS)
      throw new RangeError(`token cache TTL must be 0 to ${REVOCATION_BOUND_MS} ms`);
  }

  async findByHash(hash: string): Promise<StoredApiToken | undefined> {
    const now = this.clock.now().getTime();
    const cached = this.entries.get(hash);
    if (cached !== undefined && now - cached.fetchedAt < this.ttlMs) return cached.token;
    const token = await this.store.findByHash(hash);
    this.entries.delete(hash);
    if (token !== undefined && this.ttlMs > 0) {
      // Map keeps insertion order: the first key is the least recently fetched.
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(hash, { token, fetchedAt: now });
    }
    return token;
  }

  add(token: StoredApiToken): Promise<void> {
    return this.store.add(token);
  }

  list(): Promise<ApiToken[]> {
    return this.store.list();
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    const found = await this.store.revoke(id, at);
    // This instance learns at once; the others within the TTL.
    for (const [hash, entry] of this.entries) if (entry.token.id === id) this.entries.delete(hash);
    return found;
  }
}
