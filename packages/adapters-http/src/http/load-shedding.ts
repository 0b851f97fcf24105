import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { errorReply } from '../errors/error-reply.js';
import { Failures } from '../errors/failures.js';
import type { PlantStoreMetrics } from '../observability/plant-store-metrics.js';

/** Probes must answer under overload too: a load balancer that sees them fail takes the instance out. */
const NEVER_SHED = new Set(['/healthz', '/readyz', '/metrics']);

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Bounds the requests in progress. Past `maxInFlight`, a request is refused at once with
 * 503/50301, `Retry-After: 1` and `Connection: close`, before its body is read.
 *
 * The check sits in front of the framework, on the Node server's `request` event: a shed
 * request costs Node's parsing and one pre-serialised answer, not a Fastify request, a Nest
 * middleware pass, a child logger, a log line and a metric observation. Under a flood of new
 * connections that difference decides whether the event loop keeps up, and so whether the
 * health probes queued behind the flood are answered in milliseconds or in seconds
 * (`pnpm bench:overload`). Shed requests are counted by `plantstore_requests_shed_total`;
 * one warn line marks the start of a shedding episode and one info line its end.
 */
export function installLoadShedding(
  /** The Node HTTP or HTTPS server, once the framework has attached its request listener. */
  server: EventEmitter,
  maxInFlight: number,
  metrics: PlantStoreMetrics,
  log: FastifyBaseLogger,
): void {
  const listeners = server.listeners('request') as RequestListener[];
  const serve = listeners[0];
  if (listeners.length !== 1 || serve === undefined)
    throw new Error(`load shedding wraps the framework's one request listener; the server has ${listeners.length}`);
  const busy = errorReply(Failures.busy, { closeConnection: true });
  // Hysteresis: an episode ends once half the capacity is free again, so a load hovering at
  // the limit writes two lines, not two per request.
  const calmBelow = Math.floor(maxInFlight / 2);
  let inFlight = 0;
  let shedInEpisode = 0;

  const release = () => {
    inFlight--;
    if (shedInEpisode > 0 && inFlight <= calmBelow) {
      log.info({ shed: shedInEpisode, maxInFlight }, 'load shedding ended');
      shedInEpisode = 0;
    }
  };

  server.removeListener('request', serve);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!NEVER_SHED.has(pathOf(request.url))) {
      if (inFlight >= maxInFlight) {
        if (shedInEpisode++ === 0)
          log.warn({ maxInFlight }, 'load shedding: requests in progress at MAX_REQUESTS_IN_FLIGHT, new ones get 503');
        metrics.requestShed();
        // Its body is not read: Node closes the connection once the answer is written.
        response.writeHead(busy.status, busy.headers).end(busy.payload);
        return;
      }
      inFlight++;
      // 'close' comes once per response, whether it was sent or the client went away.
      response.once('close', release);
    }
    serve.call(server, request, response);
  });
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
