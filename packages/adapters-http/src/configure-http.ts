import { HttpAdapterHost } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { deferBodyParsing } from './body/deferred-body-parser.js';
import { ErrorFilter } from './errors/error.filter.js';

/** HTTP behaviour that lives on the app rather than in a module; one place for main and tests. */
export function configureHttp(app: NestFastifyApplication): void {
  deferBodyParsing(app.getHttpAdapter().getInstance());
  app.useGlobalFilters(new ErrorFilter(app.get(HttpAdapterHost)));
}
