import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { describeHealth } from './health/health.openapi.js';
import { describeMetrics } from './observability/metrics.openapi.js';
import { describeDocsPage } from './openapi/docs.openapi.js';
import { describeOpenApiDocument } from './openapi/openapi.openapi.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';
import { describeFollowChanges } from './plants/changes/follow-changes.openapi.js';
import { describeCreatePlant } from './plants/create/create-plant.openapi.js';
import { describeGetPlant } from './plants/get/get-plant.openapi.js';
import { describeListPlants } from './plants/list/list-plants.openapi.js';
import { describeRemovePlant } from './plants/remove/remove-plant.openapi.js';
import { describeReplacePlant } from './plants/replace/replace-plant.openapi.js';
import { describeWebPage } from './web/web-page.openapi.js';

/**
 * Every controller's describer (`*.openapi.ts`), in the order of the module's controllers: each
 * applies the OpenAPI decorators of one controller, which carries none of its own.
 */
const DESCRIBERS: ReadonlyArray<() => void> = [
  describeFollowChanges,
  describeCreatePlant,
  describeListPlants,
  describeGetPlant,
  describeReplacePlant,
  describeRemovePlant,
  describeHealth,
  describeOpenApiDocument,
  describeDocsPage,
  describeMetrics,
  describeWebPage,
];

let described = false;

/**
 * The one way into the document's code, and with it into @nestjs/swagger: OpenApiDocumentStore
 * imports this module dynamically on the first request for the document (createHttpApp gives
 * it the import), and nothing on the serving path imports it or what it imports. Describes
 * the controllers once per process (decorating twice would list things twice), then builds.
 */
export function buildApiDocument(app: INestApplication): OpenAPIObject {
  if (!described) {
    for (const describe of DESCRIBERS) describe();
    described = true;
  }
  return buildOpenApiDocument(app);
}
