import { Controller, Get, Header, Injectable } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, type OpenAPIObject } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator.js';
import { ApiFailures, TRANSPORT_FAILURES } from './api-responses.js';
import { OPERATIONS_TAG } from './openapi-document.js';

/** The generated document, built once the app's routes are known (configureHttp). */
@Injectable()
export class OpenApiDocumentStore {
  private built: OpenAPIObject | undefined;

  set document(document: OpenAPIObject) {
    this.built = document;
  }

  get document(): OpenAPIObject {
    if (this.built === undefined) throw new Error('the OpenAPI document is built by configureHttp');
    return this.built;
  }
}

@Public()
@ApiTags(OPERATIONS_TAG)
@ApiFailures(...TRANSPORT_FAILURES)
@Controller()
export class OpenApiController {
  constructor(private readonly store: OpenApiDocumentStore) {}

  @Get('openapi.json')
  @Header('cache-control', 'no-cache')
  @ApiOperation({
    operationId: 'openApiDocument',
    summary: 'This document',
    description: 'The OpenAPI 3.1 description of this API, generated from its code.',
  })
  @ApiOkResponse({
    description: 'OpenAPI 3.1 document.',
    schema: { type: 'object' },
    example: { openapi: '3.1.0', info: { title: 'Plant Store', version: '1.0.0' } },
  })
  document(): OpenAPIObject {
    return this.store.document;
  }
}
