import type { FastifyInstance } from 'fastify';
import { sendError } from '../errors/error-reply.js';
import { Failures } from '../errors/failures.js';
import type { Lifecycle } from '../health/lifecycle.js';
import { logCause } from '../logging/log-cause.js';
import { LogSampler } from '../logging/log-sampler.js';
import type { PinoLogger } from '../logging/pino-logger.js';
import type { HttpEvents } from '../ports/http-events.js';
import { REQUEST_ID_HEADER } from '../logging/request-id.js';

/** Request lines and headers this server does not serve, refused before routing. */
export function refuseUnspokenFraming(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    // Node's parser also reads `HTTP/2.0` (and 0.9) request lines: a version this server does not speak is refused.
    if (request.raw.httpVersionMajor !== 1)
      return sendError(reply, Failures.httpVersionNotSupported, { closeConnection: true });
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is malformed.
    if (request.raw.httpVersion !== '1.1' || request.headers.host !== undefined) return done();
    sendError(reply, Failures.missingHost, { closeConnection: true });
  });
}

/**
 * Per request: echo the request id, refuse new work while draining (and close connections
 * after the work in flight), and on completion write
 * one JSON log line (method, route, path, status, latency; the request's logger adds reqId)
 * and the duration metric. Headers and the query string are never logged: the query could
 * carry a token.
 */
export function installRequestHooks(fastify: FastifyInstance, events: HttpEvents, lifecycle: Lifecycle): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    if (!lifecycle.isDraining) return done();
    logCause(request, 'shutting down');
    sendError(reply, Failures.shuttingDown, { closeConnection: true });
  });
  // While draining, every response closes its connection: an idle keep-alive connection would
  // otherwise hold the exit until it expires.
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (lifecycle.isDraining) void reply.header('connection', 'close');
    done(null, payload);
  });
  // A client refused by a limit (429) chooses how often that happens: its lines are sampled.
  const throttledLines = new LogSampler();
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    events.requestCompleted(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    const level = reply.statusCode >= 500 ? 'error' : 'info';
    // Below LOG_LEVEL the line is dropped anyway: skip building it (and testing the route) for every request.
    // request.log is a child of the pino logger given to Fastify (createFastifyAdapter).
    if (!(request.log as PinoLogger).isLevelEnabled(level)) return done();
    const unlogged = reply.statusCode === 429 ? throttledLines.take() : 0;
    if (unlogged === undefined) return done();
    request.log[level](
      {
        method: request.method,
        route,
        // The path only where the client chose nothing in it: an unmatched path or a route
        // parameter is whatever was typed there, a token included.
        ...(route !== 'unmatched' && !/[:*]/.test(route) ? { path: request.url.split('?', 1)[0] } : {}),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        ...(unlogged > 0 ? { unlogged } : {}),
      },
      'request completed',
    );
    done();
  });
}
