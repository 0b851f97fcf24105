import type { ApiToken } from './api-token.js';
import type { Clock } from './clock.js';
import { InvalidTokenRequestError } from './errors.js';
import { textViolations } from './plant-text.js';
import { DEFAULT_SCOPES, isScope, type Scope } from './scope.js';
import type { TokenRepository, TokenSecrets } from './token-ports.js';

export interface IssueTokenCommand {
  readonly name: string;
  readonly scopes?: readonly string[] | undefined;
  /**
   * The token's lifetime in milliseconds; absent for a token that never expires. A duration,
   * not an instant: the expiry is counted from the same clock reading as `createdAt`, so the
   * token lives exactly this long.
   */
  readonly expiresInMs?: number | undefined;
}

export interface IssuedToken {
  readonly token: ApiToken;
  /** Shown once to the operator; only its hash is stored. */
  readonly plaintext: string;
}

// Past year 9999 an ISO-8601 timestamp needs an expanded year, which neither engine sorts well.
const LATEST_EXPIRY_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

export class IssueToken {
  static readonly MAX_NAME_CODE_POINTS = 100;

  constructor(
    private readonly tokens: TokenRepository,
    private readonly secrets: TokenSecrets,
    private readonly clock: Clock,
  ) {}

  async execute(command: IssueTokenCommand): Promise<IssuedToken> {
    const now = this.clock.now();
    const nameProblems = textViolations('name', command.name, IssueToken.MAX_NAME_CODE_POINTS);
    if (nameProblems.length > 0) throw new InvalidTokenRequestError(nameProblems.map((p) => p.message).join('; '));
    const scopes = uniqueScopes(command.scopes);
    const expiresAt = expiryOf(now, command.expiresInMs);
    const plaintext = this.secrets.generateToken();
    const token: ApiToken = {
      id: this.secrets.generateId(),
      name: command.name,
      scopes,
      createdAt: now,
      expiresAt,
      revokedAt: undefined,
    };
    await this.tokens.add({ ...token, hash: this.secrets.hash(plaintext) });
    return { token, plaintext };
  }
}

function uniqueScopes(requested: readonly string[] | undefined): Scope[] {
  if (requested === undefined || requested.length === 0) return [...DEFAULT_SCOPES];
  const unknown = requested.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw new InvalidTokenRequestError(`unknown scope ${unknown.join(', ')} (known: plants:write, plants:read)`);
  }
  return [...new Set(requested as Scope[])];
}

function expiryOf(now: Date, lifetimeMs: number | undefined): Date | undefined {
  if (lifetimeMs === undefined) return undefined;
  if (!Number.isSafeInteger(lifetimeMs) || lifetimeMs <= 0) {
    throw new InvalidTokenRequestError('the lifetime must be a positive whole number of milliseconds');
  }
  const expiresAt = now.getTime() + lifetimeMs;
  if (expiresAt > LATEST_EXPIRY_MS) throw new InvalidTokenRequestError('the token would expire after the year 9999');
  return new Date(expiresAt);
}
