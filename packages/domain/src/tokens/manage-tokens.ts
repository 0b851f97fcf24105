import type { Clock } from '../common/clock.js';
import type { ApiToken } from './api-token.js';
import { TokenNotFoundError } from './token-errors.js';
import type { TokenRepository } from './token-ports.js';

export class ListTokens {
  constructor(private readonly tokens: TokenRepository) {}

  /**
   * Every token, oldest first, without hashes.
   * @throws {StorageUnavailableError} the token store cannot be reached.
   */
  execute(): Promise<ApiToken[]> {
    return this.tokens.list();
  }
}

export class RevokeToken {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Revokes the token now; revoking it again keeps the first time. Running instances refuse
   * it within REVOCATION_BOUND_MS.
   * @throws {TokenNotFoundError} no token has this id.
   * @throws {StorageUnavailableError} the token store cannot be reached.
   */
  async execute(tokenId: string): Promise<void> {
    const found = await this.tokens.revoke(tokenId, this.clock.now());
    if (!found) throw new TokenNotFoundError(tokenId);
  }
}
