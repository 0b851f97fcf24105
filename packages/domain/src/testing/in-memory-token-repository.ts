import type { ApiToken, StoredApiToken } from '../tokens/api-token.js';
import type { TokenRepository } from '../tokens/token-ports.js';

/** TokenRepository in a Map, following the port's contract (checked by the contract suite). */
export class InMemoryTokenRepository implements TokenRepository {
  private readonly tokens = new Map<string, StoredApiToken>();
  /** How many times findByHash was called: shows whether a lookup happened at all. */
  lookups = 0;

  async add(token: StoredApiToken): Promise<void> {
    if (this.tokens.has(token.id)) throw new Error(`token id ${token.id} already stored`);
    if (this.rawRows().some((stored) => stored.hash === token.hash))
      throw new Error('a token with this hash is already stored');
    this.tokens.set(token.id, { ...token });
  }

  async findByHash(hash: string): Promise<StoredApiToken | undefined> {
    this.lookups++;
    const found = this.rawRows().find((token) => token.hash === hash);
    return found === undefined ? undefined : { ...found };
  }

  async list(): Promise<ApiToken[]> {
    return this.rawRows()
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map(({ hash: _hash, ...token }) => token);
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
