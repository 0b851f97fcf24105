import type { Clock } from '../common/clock.js';
import { textViolations } from '../common/text-rules.js';
import { hasTokenShape, type ApiToken } from './api-token.js';
import { DEFAULT_SCOPES, isScope, SCOPES, type Scope } from './scope.js';
import { InvalidTokenRequestError, TokenSecretsMisconfiguredError } from './token-errors.js';
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

  /**
   * Issues a token and stores only its hash; the plaintext is in the result, once.
   * @throws {InvalidTokenRequestError} the name breaks the text rules (1 to 100 code points),
   *   a scope is unknown, or the lifetime is not a positive whole number of milliseconds
   *   ending by the year 9999. Nothing is stored.
   * @throws {TokenSecretsMisconfiguredError} the TokenSecrets made a token AuthenticateToken
   *   would refuse as malformed. Nothing is stored.
   * @throws {StorageUnavailableError} the token store cannot be reached.
   */
  async execute(command: IssueTokenCommand): Promise<IssuedToken> {
    const now = this.clock.now();
    const { scopes, expiresAt } = checkTokenRequest(command, now);
    const plaintext = this.secrets.generateToken();
    // A token that can never authenticate must not be handed out (say, base64 instead of base64url).
    if (!hasTokenShape(plaintext)) throw new TokenSecretsMisconfiguredError();
    const token: ApiToken = {
      id: this.secrets.generateId(),
      name: command.name,
      scopes,
      createdAt: now,
      expiresAt,
      revokedAt: undefined,
    };
    await this.tokens.add({ ...token, hash: await this.secrets.hash(plaintext) });
    return { token, plaintext };
  }
}

/**
 * The rules IssueToken applies to a request, made at `now`, without storing anything: so an
 * adapter can refuse a bad request before it opens a store. Returns the scopes (the default
 * when none is asked for, each once) and the expiry.
 * @throws {InvalidTokenRequestError} as IssueToken does for the name, a scope or the lifetime.
 */
export function checkTokenRequest(
  command: IssueTokenCommand,
  now: Date,
): { scopes: Scope[]; expiresAt: Date | undefined } {
  const nameProblems = textViolations('name', command.name, IssueToken.MAX_NAME_CODE_POINTS);
  if (nameProblems.length > 0) throw new InvalidTokenRequestError(nameProblems.map((p) => p.message).join('; '));
  return { scopes: uniqueScopes(command.scopes), expiresAt: expiryOf(now, command.expiresInMs) };
}

function uniqueScopes(requested: readonly string[] | undefined): Scope[] {
  if (requested === undefined || requested.length === 0) return [...DEFAULT_SCOPES];
  const unknown = requested.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw new InvalidTokenRequestError(`unknown scope ${unknown.join(', ')} (known: ${SCOPES.join(', ')})`);
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
