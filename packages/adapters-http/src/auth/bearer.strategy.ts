import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { AuthenticateToken, AuthenticationFailure, Principal } from '@plantstore/domain';
import { Strategy } from 'passport-http-bearer';
import { AUTHENTICATE_TOKEN } from '../ports/di-tokens.js';

/** Why a request was refused authentication: the domain's reasons for a token, or the header's. */
export type BearerRefusalReason = AuthenticationFailure | 'missing' | 'repeated';

/**
 * A refused authentication and its reason. The strategy's `validate` throws it for a token the
 * domain refuses (as @nestjs/passport documents a refusal: PassportStrategy hands what
 * `validate` throws to passport as its verify callback's error, and passport to the guard's
 * `handleRequest`), and the guard for a header that presents no token.
 */
export class BearerRefusal extends Error {
  constructor(readonly reason: BearerRefusalReason) {
    super(`authentication refused: ${reason}`);
  }
}

/**
 * passport-http-bearer, unchanged: it takes the token from the request the guard hands it
 * (made of the one header read, BearerAuthGuard.getRequest), and `validate` asks the domain.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(@Inject(AUTHENTICATE_TOKEN) private readonly authenticateToken: AuthenticateToken) {
    super();
  }

  /** The token's principal; a token the domain refuses throws its reason. */
  async validate(token: string): Promise<Principal> {
    const result = await this.authenticateToken.execute(token);
    if (result.ok) return result.principal;
    throw new BearerRefusal(result.reason);
  }
}
