import type { Scope } from './scope.js';

// Only code holding this key constructs a Principal: see mintPrincipal.
const MINT = Symbol('Principal');
let construct: (tokenId: string, scopes: readonly Scope[]) => Principal;

/**
 * The caller a valid token stands for. Only AuthenticateToken makes one (tests use
 * `principalForTests` from `@plantstore/domain/testing`), so holding a Principal means a
 * token was checked: it cannot be built, or its scopes changed, anywhere else.
 */
export class Principal {
  readonly scopes: readonly Scope[];

  static {
    construct = (tokenId, scopes) => new Principal(MINT, tokenId, scopes);
  }

  private constructor(
    key: typeof MINT,
    readonly tokenId: string,
    scopes: readonly Scope[],
  ) {
    // The private constructor binds TypeScript callers; this binds plain JavaScript ones.
    if (key !== MINT) throw new TypeError('a Principal comes from AuthenticateToken');
    this.scopes = Object.freeze([...scopes]);
    Object.freeze(this);
  }

  can(scope: Scope): boolean {
    return this.scopes.includes(scope);
  }
}

/** For AuthenticateToken and the testing subpath only: the package's entry points do not export it. */
export function mintPrincipal(tokenId: string, scopes: readonly Scope[]): Principal {
  return construct(tokenId, scopes);
}
