import { Controller, Get, Header, Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator.js';

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
@Controller()
export class OpenApiController {
  constructor(private readonly store: OpenApiDocumentStore) {}

  @Get('openapi.json')
  @Header('cache-control', 'no-cache')
  document(): OpenAPIObject {
    return this.store.document;
  }
}
