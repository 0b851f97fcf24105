import type { ApiToken } from './api-token.js';
import type { Clock } from './clock.js';
import { TokenNotFoundError } from './errors.js';
import type { TokenRepository } from './token-ports.js';

export class ListTokens {
  constructor(private readonly tokens: TokenRepository) {}

  execute(): Promise<ApiToken[]> {
    return this.tokens.list();
  }
}

export class RevokeToken {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly clock: Clock,
  ) {}

  async execute(tokenId: string): Promise<void> {
    const found = await this.tokens.revoke(tokenId, this.clock.now());
    if (!found) throw new TokenNotFoundError(tokenId);
  }
}
