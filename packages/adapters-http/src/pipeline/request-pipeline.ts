import type { FastifyInstance } from 'fastify';
import { requestingClient } from '../auth/requesting-client.js';
import { deferBodyParsing } from '../body/deferred-body-parser.js';
import type { Lifecycle } from '../health/lifecycle.js';
import { installLoadShedding } from '../http/load-shedding.js';
import type { RouteTemplates } from '../http/route-templates.js';
import { bindRequestLoggers } from '../logging/request-log-context.js';
import type { HttpOptions } from '../ports/di-tokens.js';
import type { HttpEvents } from '../ports/http-events.js';
import { installRequestHooks, refuseUnspokenFraming } from './request-hooks.js';
import { sendSecurityHeaders } from './security-headers.js';

export interface RequestPipelineParts {
  readonly options: HttpOptions;
  readonly events: HttpEvents;
  readonly lifecycle: Lifecycle;
  readonly routes: RouteTemplates;
}

/**
 * The request pipeline, in the order of checks of docs/http-api.md#order-of-checks: each
 * request meets these steps in this order, and the first that refuses it decides the answer.
 *
 * 0. Framing and capacity: the in-flight limits (before Fastify sees the request), then the
 *    HTTP version and Host, and the draining refusal. From here on every answer carries the
 *    security headers.
 * 1. Routing: 404, or 405 with Allow (the router, answered by the ErrorFilter with the route
 *    templates read here).
 * 2. Authentication, then authorization, then the token's rate budget: RequestGuards, the
 *    app's one global guard.
 * 3–7. Codings and media type, size, JSON syntax, JSON shape, field rules: the body is read
 *    only here, after the guards, by the pipes of the route's body parameter
 *    (plants/create/new-plant-body.decorator.ts: JsonBodyPipe, then NewPlantPipe; for PUT,
 *    PlantReplacementPipe checks the path's id first, then reads the body the same way). The
 *    path id of GET and DELETE is checked by PlantIdPipe, after the guards too. Fastify's own
 *    body parsing is switched off so that it cannot answer before the guards.
 * 8. The store: the handler; it answers its outcomes (a refusing one by its domain error's code,
 *    errors/failure-of.ts), and what is thrown leaves through the ErrorFilter.
 *
 * PlantStoreHttpModule installs steps 0, 1 and 3–7 on Fastify with this function before Nest
 * registers the routes, and provides RequestGuards and the ErrorFilter itself.
 */
export function installRequestPipeline(fastify: FastifyInstance, parts: RequestPipelineParts): void {
  const { options, events, lifecycle, routes } = parts;
  // 0. Framing and capacity.
  installLoadShedding(
    fastify.server,
    { maxInFlight: options.maxRequestsInFlight, maxInFlightPerClient: options.maxRequestsInFlightPerClient },
    events,
    fastify.log,
    requestingClient,
  );
  sendSecurityHeaders(fastify);
  bindRequestLoggers(fastify);
  refuseUnspokenFraming(fastify);
  installRequestHooks(fastify, events, lifecycle);
  // 1. Routing: the templates are read as Nest registers the routes.
  routes.install(fastify);
  // 3–7. The body waits for the route's pipes.
  deferBodyParsing(fastify);
}
