import { FastifyAdapter } from '@nestjs/platform-fastify';
import { LogController, type FastifyReply } from 'fastify';
import type { PinoLogger } from '../logging/pino-logger.js';
import { sendError } from '../errors/error-reply.js';
import { Failures } from '../errors/failures.js';
import { requestIdFrom } from '../logging/request-id.js';
import { routeEmptyPlantId } from '../plants/empty-plant-id.js';
import { routeDocsPageAlias } from '../openapi/docs-page-alias.js';
import { clientErrorHandler, refuseConnect } from '../http/client-error-handler.js';
import { closeConnectionsInStages } from '../http/staged-close.js';

export interface ServerOptions {
  /** Whole request, headers and body, must arrive within this (slowloris bound). */
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  /** Open connections at once; Node refuses (closes) any beyond. */
  readonly maxConnections: number;
  /** PEM certificate and key: serve HTTPS instead of HTTP. */
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer } | undefined;
}

export const DEFAULT_SERVER_OPTIONS: ServerOptions = {
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 4_096,
};

/** Fastify with the transport-level behaviour of docs/http-api.md (errors the router never sees). */
export function createFastifyAdapter(
  logger: PinoLogger,
  timeouts: ServerOptions = DEFAULT_SERVER_OPTIONS,
): FastifyAdapter {
  const adapter = new FastifyAdapter({
    // Each request logs through a child of `logger` bound to its reqId (see createHttpLogging);
    // Fastify's own per-request lines are off: request-hooks.ts writes a leaner one.
    loggerInstance: logger,
    // No Nest middleware: middie's hook would run on every request for nothing.
    skipMiddie: true,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'reqId' }),
    ...(timeouts.tls ? { https: { cert: timeouts.tls.cert, key: timeouts.tls.key } } : {}),
    requestTimeout: timeouts.requestTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    // Idle-socket cut-off; above requestTimeout so a slow request still gets its 408 body.
    connectionTimeout: timeouts.requestTimeoutMs + timeouts.keepAliveTimeoutMs,
    http: {
      // Node checks request timeouts every 30 s by default: check each second instead. It also
      // skips the request timeout while headersTimeout (60 s by default) exceeds it.
      connectionsCheckingInterval: Math.min(1_000, timeouts.requestTimeoutMs),
      headersTimeout: timeouts.requestTimeoutMs,
      // Node's own 400 for a missing Host has an empty body: the hook below sends the Error body.
      requireHostHeader: false,
    },
    clientErrorHandler,
    // The client's X-Request-Id when it is sane, else a fresh UUID; echoed by the request hooks.
    requestIdHeader: false,
    genReqId: (request: { headers: Record<string, string | string[] | undefined> }) =>
      requestIdFrom(request.headers['x-request-id']),
    // Requests arriving while closing get the Error body from configureHttp's draining hook instead.
    return503OnClosing: false,
    // `/plants/` is GET /plants/{id} with an empty id (400), which Nest would call an unknown
    // route; `/docs/` is the docs page.
    rewriteUrl: (request: { url?: string | undefined }) => routeDocsPageAlias(routeEmptyPlantId(request.url ?? '/')),
    // A URL the router cannot decode (e.g. `/%zz`) is a malformed request, not a 500.
    frameworkErrors: (_error: unknown, _request: unknown, reply: FastifyReply) =>
      sendError(reply, Failures.malformedUrl),
  });
  const fastify = adapter.getInstance();
  // Bounds file descriptors and socket buffers when clients open connections faster than they finish.
  fastify.server.maxConnections = timeouts.maxConnections;
  fastify.server.on('connect', refuseConnect);
  // An answer that closes its connection reaches a client still sending the body.
  closeConnectionsInStages(fastify.server);
  // Node answers an Expect other than 100-continue with an empty 417; RFC 9110 §10.1.1 lets a
  // server ignore the expectation instead, so the request is served as usual.
  fastify.server.on('checkExpectation', (request, response) => fastify.server.emit('request', request, response));
  return adapter;
}
