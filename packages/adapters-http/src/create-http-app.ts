import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpLogging, createPinoLogger, type DestinationStream, type LogLevel } from './logging/pino-logger.js';
import { OpenApiDocumentStore } from './openapi/openapi.controller.js';
import { createFastifyAdapter, type ServerOptions } from './pipeline/create-fastify-adapter.js';

export interface HttpAppOptions extends ServerOptions {
  readonly logLevel: LogLevel;
  /** Where log lines go; stdout when absent. */
  readonly logDestination?: DestinationStream | undefined;
}

/**
 * The Nest application on Fastify as this adapter serves it, around a root module that imports
 * PlantStoreHttpModule: Fastify's body parsing off (the pipes read bodies after the guards),
 * one JSON logger for Nest and Fastify from the first line, and the OpenAPI document built from
 * its routes on the first request for it (the only import of the document's code, and so of
 * @nestjs/swagger, is the dynamic one here).
 */
export async function createHttpApp(
  rootModule: DynamicModule,
  options: HttpAppOptions,
): Promise<NestFastifyApplication> {
  const logging = createHttpLogging(createPinoLogger(options.logLevel, options.logDestination));
  const app = await NestFactory.create<NestFastifyApplication>(
    rootModule,
    createFastifyAdapter(logging.pino, options),
    {
      bodyParser: false,
      logger: logging.nestLogger,
      abortOnError: false,
    },
  );
  app
    .get(OpenApiDocumentStore)
    .buildFrom(app, async () => (await import('./openapi-document-builder.js')).buildApiDocument);
  return app;
}
