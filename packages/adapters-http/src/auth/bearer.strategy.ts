import type { IncomingMessage } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { AuthenticateToken, AuthenticationFailure, Principal } from '@plantstore/domain';
import { Strategy } from 'passport-http-bearer';
import { AUTHENTICATE_TOKEN } from '../ports/di-tokens.js';
import { readBearerCredentials } from './bearer-credentials.js';

/** Why the bearer strategy refused a request: the domain's reasons for a token, or the header's. */
export type BearerRefusal = AuthenticationFailure | 'missing' | 'repeated';

/** passport-http-bearer's verify callback, as its Strategy keeps it. */
type Verify = (
  token: string,
  done: (error: unknown, principal?: Principal | false, refusal?: AuthenticationFailure) => void,
) => void;

/**
 * passport-http-bearer, reading credentials from the Authorization header only. Its own
 * extraction also takes `access_token` from the body and the query string (docs/tokens.md
 * accepts neither), splits the header on one space where RFC 7235 allows several, and fails
 * with no reason; here the header is read once (readBearerCredentials), and passport hears
 * the verdict with its reason: `success(principal)` or `fail(refusal)`.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(@Inject(AUTHENTICATE_TOKEN) private readonly authenticateToken: AuthenticateToken) {
    super();
  }

  override authenticate(request: IncomingMessage): void {
    const credentials = readBearerCredentials(request);
    if (credentials.kind !== 'token') return this.fail(credentials.kind);
    // The verify callback passport-http-bearer was built with: PassportStrategy's, which calls validate.
    (this as unknown as { _verify: Verify })._verify(credentials.token, (error, principal, refusal) => {
      if (error) this.error(error);
      else if (principal) this.success(principal);
      else this.fail(refusal ?? 'unknown');
    });
  }

  /** A principal, or `[false, reason]`: PassportStrategy hands an array to the verify callback spread. */
  async validate(token: string): Promise<Principal | [false, AuthenticationFailure]> {
    const result = await this.authenticateToken.execute(token);
    return result.ok ? result.principal : [false, result.reason];
  }

  // passport-strategy's verdicts, set on the strategy for each request by passport.authenticate.
  declare success: (principal: Principal) => void;
  declare fail: (refusal: BearerRefusal) => void;
  declare error: (error: unknown) => void;
}
