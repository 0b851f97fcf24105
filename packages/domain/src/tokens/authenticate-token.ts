import type { Clock } from '../common/clock.js';
import { hasTokenShape, tokenStateAt } from './api-token.js';
import { mintPrincipal, type Principal } from './principal.js';
import type { TokenRepository, TokenSecrets } from './token-ports.js';

export type AuthenticationFailure = 'malformed' | 'unknown' | 'expired' | 'revoked';

export type AuthenticationResult =
  { readonly ok: true; readonly principal: Principal } | { readonly ok: false; readonly reason: AuthenticationFailure };

/** Turns a presented bearer token into the principal it stands for, or says why it cannot. */
export class AuthenticateToken {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly secrets: TokenSecrets,
    private readonly clock: Clock,
  ) {}

  /**
   * A refused token is a result (`ok: false` with the reason), not an error.
   * @throws {StorageUnavailableError} the token store cannot be reached (from the port, unchanged).
   */
  async execute(presented: string): Promise<AuthenticationResult> {
    // Refuse anything that cannot be one of ours before touching the store.
    if (!hasTokenShape(presented)) return { ok: false, reason: 'malformed' };
    const token = await this.tokens.findByHash(await this.secrets.hash(presented));
    if (token === undefined) return { ok: false, reason: 'unknown' };
    const state = tokenStateAt(token, this.clock.now());
    if (state !== 'active') return { ok: false, reason: state };
    return { ok: true, principal: mintPrincipal(token.id, token.scopes) };
  }
}
