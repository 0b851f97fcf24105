import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { deferBodyParsing } from './body/deferred-body-parser.js';
import { ErrorFilter } from './errors/error.filter.js';
import { Lifecycle } from './health/lifecycle.js';
import { PlantStoreMetrics } from './observability/plant-store-metrics.js';
import { bindRequestLoggers } from './observability/request-log-context.js';
import { installRequestHooks } from './observability/request-hooks.js';
import { installLoadShedding } from './http/load-shedding.js';
import { RouteTemplates } from './http/route-templates.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';
import { OpenApiDocumentStore } from './openapi/openapi.controller.js';
import { HTTP_OPTIONS, type HttpOptions } from './di-tokens.js';

/** HTTP behaviour that lives on the app rather than in a module; one place for main and tests. */
export function configureHttp(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(PlantStoreMetrics);
  // Before app.init() registers the routes, so that it sees every one of them.
  const routes = RouteTemplates.install(fastify);
  deferBodyParsing(fastify);
  bindRequestLoggers(fastify);
  installRequestHooks(fastify, metrics, app.get(Lifecycle));
  const { maxRequestsInFlight, maxRequestsInFlightPerClient } = app.get<HttpOptions>(HTTP_OPTIONS);
  installLoadShedding(
    fastify.server,
    { maxInFlight: maxRequestsInFlight, maxInFlightPerClient: maxRequestsInFlightPerClient },
    metrics,
    fastify.log,
  );
  app.get(OpenApiDocumentStore).document = buildOpenApiDocument(app);
  app.useGlobalFilters(new ErrorFilter(routes, metrics));
  app.useSecurityHeaders({
    // A JSON API and one docs page served from here: nothing from elsewhere, no framing.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'img-src': ["'self'", 'data:'],
        'style-src': ["'self'", "'unsafe-inline'"],
        'object-src': ["'none'"],
        'base-uri': ["'none'"],
        'frame-ancestors': ["'none'"],
        'form-action': ["'none'"],
      },
    },
    xFrameOptions: { action: 'deny' },
  });
}
