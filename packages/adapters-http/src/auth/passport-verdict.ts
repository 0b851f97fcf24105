import type { Principal } from '@plantstore/domain';
import passport from 'passport';
import type { BearerRefusal } from './bearer.strategy.js';

export type BearerVerdict = { readonly principal: Principal } | { readonly refusal: BearerRefusal };

/**
 * Runs the `bearer` strategy through passport for one request and answers its verdict as a
 * value (as @nestjs/passport's AuthGuard does inside, which then throws from a synchronous
 * `handleRequest`: counting a refusal needs an await first).
 */
export function bearerVerdict(request: unknown, reply: unknown): Promise<BearerVerdict> {
  return new Promise((resolve, reject) => {
    const middleware = passport.authenticate(
      'bearer',
      { session: false },
      (error: Error | null, principal: Principal | false, refusal: BearerRefusal) => {
        if (error) reject(error);
        else resolve(principal ? { principal } : { refusal });
      },
    ) as (request: unknown, reply: unknown, next: (error?: unknown) => void) => void;
    middleware(request, reply, reject);
  });
}
