import type { LoggerService } from '@nestjs/common';
import type { AuthenticationFailure } from '@plantstore/domain';

/**
 * Why a request was refused before it reached its handler: the domain's reasons for a
 * presented token, and the HTTP layer's own (no credentials, a missing scope, an address
 * throttled after too many failures). The label values of `plantstore_auth_failures_total`.
 */
export type AuthFailureReason = AuthenticationFailure | 'missing' | 'insufficient_scope' | 'throttled';

/**
 * A request that is not authenticated, and why: raised by the bearer strategy and by the
 * guard's handleRequest, caught by the guard's canActivate, which answers it.
 */
export class AuthenticationRefused extends Error {
  constructor(readonly reason: AuthenticationFailure | 'missing') {
    super(`authentication refused: ${reason}`);
  }
}

/**
 * One line per refused request: why, and from which address. The reason is a fixed word;
 * nothing the client sent (a token, a header) is ever part of it.
 */
export function logRefusal(logger: LoggerService, reason: AuthFailureReason, clientAddress: string): void {
  logger.warn({ msg: 'authentication refused', reason, client: clientAddress });
}
