import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '../errors/error-codes.js';
import type { PlantStoreMetrics } from '../observability/plant-store-metrics.js';

/** Probes must answer under overload too: a load balancer that sees them fail takes the instance out. */
const NEVER_SHED = new Set(['/healthz', '/readyz', '/metrics']);

const BUSY = JSON.stringify({ error: ErrorCode.Unavailable, message: 'The server is busy; retry after the time in the Retry-After header.' });

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
      void reply
        .status(503)
        .headers({ 'content-type': 'application/json; charset=utf-8', 'retry-after': '1', connection: 'close' })
        .send(BUSY);
      return;
    }
    inFlight++;
    // 'close' comes once per response, whether it was sent or the client went away.
    reply.raw.once('close', () => inFlight--);
    done();
  });
}
