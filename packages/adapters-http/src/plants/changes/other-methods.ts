import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { sendError } from '../../errors/error-reply.js';
import { Failures } from '../../errors/failures.js';

export const CHANGES_PATH = '/plants/changes';
const ALLOWED = ['GET', 'HEAD'] as const;
/** The route whose `{id}` could be read as `changes`: PUT and DELETE /plants/{id}. */
const PLANT_ROUTE = '/plants/:id';

/**
 * PUT and DELETE /plants/changes are 405 with `Allow: GET, HEAD`, like any other method there:
 * the router would otherwise take them for /plants/{id} with an id that is no number (400).
 * A hook on that route alone answers them, at the routing step, before the token is looked
 * at (docs/http-api.md#order-of-checks). The other methods find no route and get their 405
 * from the error filter, as everywhere. Install before the routes are registered.
 */
export function refuseOtherMethodsOnChanges(fastify: FastifyInstance): void {
  const refuse: onRequestHookHandler = (request, reply, done) => {
    if ((request.params as { id?: string }).id !== 'changes') return done();
    const { headers } = request.raw;
    const declaresBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
    // A body this answer does not read closes the connection (in stages: http/staged-close.ts).
    sendError(reply, Failures.methodNotAllowed(request.method, CHANGES_PATH, ALLOWED), {
      closeConnection: declaresBody && !request.raw.readableEnded,
    });
  };
  fastify.addHook('onRoute', (route) => {
    if (route.url !== PLANT_ROUTE) return;
    const own = route.onRequest;
    route.onRequest = own === undefined ? [refuse] : [...(Array.isArray(own) ? own : [own]), refuse];
  });
}
