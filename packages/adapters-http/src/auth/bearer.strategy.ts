import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { AuthenticateToken, Principal } from '@plantstore/domain';
import { Strategy } from 'passport-http-bearer';
import { AUTHENTICATE_TOKEN } from '../di-tokens.js';
import { AuthenticationRefused } from './auth-failure.js';

const BEARER_CREDENTIALS = /^(bearer)[ \t]+(\S+)[ \t]*$/i;

function singleSpaced(header: unknown): unknown {
  if (typeof header !== 'string') return header;
  const match = BEARER_CREDENTIALS.exec(header);
  return match ? `${match[1]} ${match[2]}` : header;
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
    const headerOnly = { headers: { authorization: singleSpaced(request.headers['authorization']) } };
    super.authenticate(headerOnly as unknown as Parameters<Strategy<never>['authenticate']>[0], options);
  }

  /** Passport hands what this throws to the guard's handleRequest as its error. */
  async validate(token: string): Promise<Principal> {
    const result = await this.authenticateToken.execute(token);
    if (!result.ok) throw new AuthenticationRefused(result.reason);
    return result.principal;
  }
}
