import type { Clock } from '../common/clock.js';
import type { ApiToken } from './api-token.js';
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

/** `revoked` (now or earlier), or `not-found`: no token has the id. */
export interface RevokeTokenResult {
  readonly outcome: 'revoked' | 'not-found';
}

export class RevokeToken {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Revokes the token now; revoking it again keeps the first time. Running instances refuse
   * it within REVOCATION_BOUND_MS. An unknown id is the `not-found` outcome, not an error.
   * @throws {StorageUnavailableError} the token store cannot be reached.
   */
  async execute(tokenId: string): Promise<RevokeTokenResult> {
    const found = await this.tokens.revoke(tokenId, this.clock.now());
    return { outcome: found ? 'revoked' : 'not-found' };
  }
}
