import { mintPrincipal, type Principal } from '../tokens/principal.js';
import type { Scope } from '../tokens/scope.js';

/**
 * A Principal for tests of code that receives one (guards, controllers), without issuing
 * and authenticating a token. Production code gets principals from AuthenticateToken only.
 */
export function principalForTests(tokenId: string, scopes: readonly Scope[]): Principal {
  return mintPrincipal(tokenId, scopes);
}
