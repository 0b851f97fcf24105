import type { FastifyInstance } from 'fastify';
import { sendError } from '../errors/error-reply.js';
import { Failures } from '../errors/failures.js';
import type { PlantStoreMetrics } from '../observability/plant-store-metrics.js';

/** Probes must answer under overload too: a load balancer that sees them fail takes the instance out. */
const NEVER_SHED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Bounds the requests in progress. Past `maxInFlight`, a request is refused at once with
 * 503/50301, `Retry-After: 1` and `Connection: close`, before its body is read: memory and
 * the event loop's backlog stay bounded whatever the number of clients, so the requests
 * already admitted, and the health probes, keep their normal latency.
 */
export function installLoadShedding(fastify: FastifyInstance, maxInFlight: number, metrics: PlantStoreMetrics): void {
  let inFlight = 0;
  fastify.addHook('onRequest', (request, reply, done) => {
    if (NEVER_SHED.has(request.routeOptions.url ?? '')) return done();
    if (inFlight >= maxInFlight) {
      metrics.requestShed();
      // Its body is not read: the connection closes after the answer.
      sendError(reply, Failures.busy, { closeConnection: true });
      return;
    }
    inFlight++;
    // 'close' comes once per response, whether it was sent or the client went away.
    reply.raw.once('close', () => inFlight--);
    done();
  });
}
