import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BearerAuthGuard } from '../auth/bearer-auth.guard.js';
import { ScopeGuard } from '../auth/scope.guard.js';
import { deferBodyParsing } from '../body/deferred-body-parser.js';
import { installLoadShedding } from '../http/load-shedding.js';
import { RouteTemplates } from '../http/route-templates.js';
import { Lifecycle } from '../health/lifecycle.js';
import { TokenRateLimitGuard } from '../limits/token-rate-limit.guard.js';
import { bindRequestLoggers } from '../logging/request-log-context.js';
import { HTTP_OPTIONS, type HttpOptions } from '../ports/di-tokens.js';
import { HTTP_EVENTS, type HttpEvents } from '../ports/http-events.js';
import { ErrorFilter } from './error.filter.js';
import { RequestPipelineInstalled } from './request-pipeline-installed.js';
import { installRequestHooks, refuseUnspokenFraming } from './request-hooks.js';
import { sendSecurityHeaders } from './security-headers.js';

/**
 * The request pipeline, in the order of checks of docs/http-api.md#order-of-checks: each
 * request meets these steps in this order, and the first that refuses it decides the answer.
 *
 * 0. Framing and capacity: the in-flight limits (before Fastify sees the request), then the
 *    HTTP version and Host, and the draining refusal. From here on every answer carries the
 *    security headers.
 * 1. Routing: 404, or 405 with Allow (the router, answered by the ErrorFilter).
 * 2. Authentication, then authorization, then the token's rate budget (global guards, in
 *    this order; Nest runs guards in the order given).
 * 3–7. Codings and media type, size, JSON syntax, JSON shape, field rules: the body is read
 *    only here, after the guards, by the pipes of the route's body parameter
 *    (plants/new-plant-body.decorator.ts: JsonBodyPipe, then NewPlantPipe). Fastify's own
 *    body parsing is switched off so that it cannot answer before the guards.
 * 8. The store: the handler; its expected outcomes and failures leave through the ErrorFilter.
 *
 * Must run before app.init(), which registers the routes. PlantStoreHttpModule refuses to
 * start without it: without the guards installed here no route would be authenticated.
 */
export function installRequestPipeline(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  const events = app.get<HttpEvents>(HTTP_EVENTS);
  const { maxRequestsInFlight, maxRequestsInFlightPerClient } = app.get<HttpOptions>(HTTP_OPTIONS);
  // 0. Framing and capacity.
  installLoadShedding(
    fastify.server,
    { maxInFlight: maxRequestsInFlight, maxInFlightPerClient: maxRequestsInFlightPerClient },
    events,
    fastify.log,
  );
  sendSecurityHeaders(fastify);
  bindRequestLoggers(fastify);
  refuseUnspokenFraming(fastify);
  installRequestHooks(fastify, events, app.get(Lifecycle));
  // 1. Routing: the templates are read as app.init() registers the routes.
  const routes = RouteTemplates.install(fastify);
  app.useGlobalFilters(new ErrorFilter(routes, events));
  // 2. Authentication, authorization, the token's budget.
  app.useGlobalGuards(app.get(BearerAuthGuard), app.get(ScopeGuard), app.get(TokenRateLimitGuard));
  // 3–7. The body waits for the route's pipes.
  deferBodyParsing(fastify);
  app.get(RequestPipelineInstalled).installed = true;
}
