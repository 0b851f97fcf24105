import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { buildOpenApiDocument } from './openapi/openapi-document.js';
import { OpenApiDocumentStore } from './openapi/openapi.controller.js';
import { installRequestPipeline } from './pipeline/request-pipeline.js';

/** What the app needs besides its modules, before app.init(); one place for main and tests. */
export function configureHttp(app: NestFastifyApplication): void {
  installRequestPipeline(app);
  app.get(OpenApiDocumentStore).document = buildOpenApiDocument(app);
}
