import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { errorReply } from '../errors/error-reply.js';
import { Failures } from '../errors/failures.js';
import { LogSampler } from '../logging/log-sampler.js';
import type { HttpEvents } from '../ports/http-events.js';

/** Probes must answer under overload too: a load balancer that sees them fail takes the instance out. */
const NEVER_SHED = new Set(['/healthz', '/readyz', '/metrics']);

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/** Whose request this is, as a key that is never logged: auth/requesting-client.ts. */
export type ClientOf = (request: IncomingMessage) => string;

/** How many requests may be in progress at once, in all and per client. */
export interface InFlightLimits {
  /** Past it, 503/50301 at once. */
  readonly maxInFlight: number;
  /** Past it, one client (a bearer credential, or without one its address) gets 429/42901 at once. */
  readonly maxInFlightPerClient: number;
}

/** For each admitted request: gives back its place among MAX_REQUESTS_IN_FLIGHT (once). */
const sharedPlaces = new WeakMap<IncomingMessage, () => void>();

/**
 * A request that becomes a long-lived stream (a change stream) gives back its place among
 * MAX_REQUESTS_IN_FLIGHT, which bounds work in progress, and keeps its client's place until it
 * ends: streams have their own bound (MAX_CHANGE_STREAMS), and one client still cannot hold
 * more than its share.
 */
export function releaseSharedPlace(request: IncomingMessage): void {
  sharedPlaces.get(request)?.();
  sharedPlaces.delete(request);
}

/** The shortest shedding episode: hovering at the limit writes at most two lines a second. */
const MIN_EPISODE_MS = 1_000;

/**
 * Bounds the requests in progress. Past `maxInFlight`, a request is refused at once with
 * 503/50301, `Retry-After: 1` and `Connection: close`, before its body is read. Past
 * `maxInFlightPerClient` requests of its own in progress, a client is refused the same way
 * with 429/42901: one client holding requests open (bodies sent but for a byte) takes at most
 * its share, and the others' requests are still admitted.
 *
 * A client is what `clientOf` says: its bearer token (a token's requests are held while
 * authenticated, since the body is read after authentication; a forged one is answered 401 at
 * once and holds nothing), and without one its peer address. The key lives in memory only
 * while the client has requests in progress, and is never logged.
 *
 * The check sits in front of the framework, on the Node server's `request` event: a shed
 * request costs Node's parsing and one pre-serialised answer, not a Fastify request, a Nest
 * middleware pass, a child logger, a log line and a metric observation. Under a flood of new
 * connections that difference decides whether the event loop keeps up, and so whether the
 * health probes queued behind the flood are answered in milliseconds or in seconds
 * (`pnpm bench:overload`). Refusals are counted by `plantstore_requests_shed_total` and
 * `plantstore_requests_over_client_share_total`; one warn line marks the start of a shedding
 * episode and one info line its end, and refusals over a client's share write a burst of warn
 * lines, then at most one a second.
 */
export function installLoadShedding(
  /** The Node HTTP or HTTPS server, once the framework has attached its request listener. */
  server: EventEmitter,
  limits: InFlightLimits,
  events: HttpEvents,
  log: FastifyBaseLogger,
  clientOf: ClientOf,
): void {
  const listeners = server.listeners('request') as RequestListener[];
  const serve = listeners[0];
  if (listeners.length !== 1 || serve === undefined)
    throw new Error(`load shedding wraps the framework's one request listener; the server has ${listeners.length}`);
  const { maxInFlight, maxInFlightPerClient } = limits;
  const busy = errorReply(Failures.busy, { closeConnection: true });
  const overShare = errorReply(Failures.overClientShare, { closeConnection: true });
  // Hysteresis: an episode ends once half the capacity is free again, and not before it has
  // lasted a second, so a load hovering at the limit writes two lines a second at most.
  const calmBelow = Math.floor(maxInFlight / 2);
  let inFlight = 0;
  let shedInEpisode = 0;
  let episodeStartedAt = 0;
  const perClient = new Map<string, number>();
  const overShareLines = new LogSampler();

  const release = (client: string, holdsSharedPlace: boolean) => {
    if (holdsSharedPlace) inFlight--;
    const held = (perClient.get(client) ?? 1) - 1;
    if (held === 0) perClient.delete(client);
    else perClient.set(client, held);
    if (shedInEpisode > 0 && inFlight <= calmBelow && performance.now() - episodeStartedAt >= MIN_EPISODE_MS) {
      log.info({ shed: shedInEpisode, maxInFlight }, 'load shedding ended');
      shedInEpisode = 0;
    }
  };

  server.removeListener('request', serve);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!NEVER_SHED.has(pathOf(request.url))) {
      if (inFlight >= maxInFlight) {
        if (shedInEpisode++ === 0) {
          episodeStartedAt = performance.now();
          log.warn({ maxInFlight }, 'load shedding: requests in progress at MAX_REQUESTS_IN_FLIGHT, new ones get 503');
        }
        events.requestShed();
        // Its body is not read: the connection closes in stages once the answer is written (staged-close.ts).
        response.writeHead(busy.status, busy.headers).end(busy.payload);
        return;
      }
      const client = clientOf(request);
      const held = perClient.get(client) ?? 0;
      if (held >= maxInFlightPerClient) {
        events.requestOverClientShare();
        const unlogged = overShareLines.take();
        if (unlogged !== undefined)
          log.warn(
            { maxInFlightPerClient, ...(unlogged > 0 ? { unlogged } : {}) },
            'a client holds MAX_REQUESTS_IN_FLIGHT_PER_CLIENT requests in progress: its next ones get 429',
          );
        response.writeHead(overShare.status, overShare.headers).end(overShare.payload);
        return;
      }
      inFlight++;
      perClient.set(client, held + 1);
      let holdsSharedPlace = true;
      sharedPlaces.set(request, () => {
        if (holdsSharedPlace) inFlight--;
        holdsSharedPlace = false;
      });
      // 'close' comes once per response, whether it was sent or the client went away.
      response.once('close', () => release(client, holdsSharedPlace));
    }
    serve.call(server, request, response);
  });
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
