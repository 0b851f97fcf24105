import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { AuthenticateToken, Principal } from '@plantstore/domain';
import { Strategy } from 'passport-http-bearer';
import { AUTHENTICATE_TOKEN } from '../ports/di-tokens.js';
import { AuthenticationRefused } from './auth-failure.js';
import { readBearerCredentials } from './bearer-credentials.js';

/**
 * The header as passport-http-bearer is given it: the credentials read once here, in the one
 * form it parses (scheme, one space, token), or nothing when none was presented. Its API reads
 * the header itself, so it still splits this string; it never sees the header as sent.
 */
function forPassport(header: unknown): string | undefined {
  const credentials = readBearerCredentials(header);
  if (!credentials.presented) return undefined;
  // Malformed (`Bearer a b`): handed as sent, which passport refuses, and the guard says why.
  return credentials.token === undefined ? (header as string) : `Bearer ${credentials.token}`;
}

@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(@Inject(AUTHENTICATE_TOKEN) private readonly authenticateToken: AuthenticateToken) {
    super();
  }

  /**
   * passport-http-bearer also reads `access_token` from the body and the query string.
   * docs/tokens.md accepts the Authorization header only, so the strategy sees nothing else.
   * It also splits the header on one space; RFC 7235 allows several (and we accept tabs) between
   * the scheme and the token, so the header is handed over in its single-space form.
   */
  override authenticate(request: { headers: Record<string, unknown> }, options?: object): void {
    const headerOnly = { headers: { authorization: forPassport(request.headers['authorization']) } };
    super.authenticate(headerOnly as unknown as Parameters<Strategy<never>['authenticate']>[0], options);
  }

  /** Passport hands what this throws to the guard's handleRequest as its error. */
  async validate(token: string): Promise<Principal> {
    const result = await this.authenticateToken.execute(token);
    if (!result.ok) throw new AuthenticationRefused(result.reason);
    return result.principal;
  }
}
