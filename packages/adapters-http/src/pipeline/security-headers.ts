import type { FastifyInstance } from 'fastify';

/**
 * A JSON API and one docs page served from here: nothing from elsewhere, no framing. Headers
 * that only old browsers or plug-ins read (IE8's X-Download-Options, Flash's
 * X-Permitted-Cross-Domain-Policies, the retired XSS auditor's X-XSS-Protection, DNS
 * prefetching of links a JSON body does not have, Origin-Agent-Cluster) are not sent: five
 * header writes on every answer, for no client this API has (docs/operations.md).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    "img-src 'self' data:",
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join(';'),
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/**
 * The security headers on every answer Fastify sends, refusals of the first hooks, errors and
 * 404s included: installed as the first request hook. They go to Fastify's reply rather than,
 * as Nest's `useSecurityHeaders()` does, onto the Node response with `setHeader`: Node then
 * merges Fastify's own headers into those one `setHeader` at a time; written once with the
 * rest at `writeHead` they cost a fraction of that (docs/decisions.md#performance).
 */
export function sendSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(SECURITY_HEADERS);
    done();
  });
}
