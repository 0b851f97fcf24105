import type { ApiToken, StoredApiToken, TokenRepository } from '@plantstore/domain';

/** TokenRepository in a Map, following the port's contract (revoking twice keeps the first time). */
export class InMemoryTokenRepository implements TokenRepository {
  private readonly tokens = new Map<string, StoredApiToken>();
  lookups = 0;

  async add(token: StoredApiToken): Promise<void> {
    if (this.tokens.has(token.id)) throw new Error(`token id ${token.id} already stored`);
    this.tokens.set(token.id, { ...token });
  }

  async findByHash(hash: string): Promise<StoredApiToken | undefined> {
    this.lookups++;
    return [...this.tokens.values()].find((token) => token.hash === hash);
  }

  async list(): Promise<ApiToken[]> {
    return [...this.tokens.values()].map(({ hash: _hash, ...token }) => token);
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    const token = this.tokens.get(id);
    if (token === undefined) return false;
    if (token.revokedAt === undefined) this.tokens.set(id, { ...token, revokedAt: at });
    return true;
  }

  /** Everything the store holds, hashes included: what a leaked table would reveal. */
  rawRows(): StoredApiToken[] {
    return [...this.tokens.values()];
  }
}
