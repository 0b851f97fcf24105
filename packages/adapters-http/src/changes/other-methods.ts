import type { FastifyInstance } from 'fastify';
import { sendError } from '../errors/error-reply.js';
import { Failures } from '../errors/failures.js';

export const CHANGES_PATH = '/plants/changes';
const ALLOWED = ['GET', 'HEAD'] as const;
const REFUSED = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Any other method on /plants/changes is 405 with `Allow: GET, HEAD`. Without this route the
 * router would take PUT and DELETE /plants/changes for /plants/{id} with an id that is no
 * number (400), and the others for a path of the plants routes. Like any 405 it is answered
 * before the token is looked at (docs/http-api.md#order-of-checks).
 */
export function refuseOtherMethodsOnChanges(fastify: FastifyInstance): void {
  fastify.route({
    method: [...REFUSED],
    url: CHANGES_PATH,
    handler: (request, reply) => {
      const { headers } = request.raw;
      const declaresBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
      // A body this answer does not read closes the connection (in stages: http/staged-close.ts).
      sendError(reply, Failures.methodNotAllowed(request.method, CHANGES_PATH, ALLOWED), {
        closeConnection: declaresBody && !request.raw.readableEnded,
      });
    },
  });
}
