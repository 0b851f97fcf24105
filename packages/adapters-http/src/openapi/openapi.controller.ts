import { Controller, Get, Header, Injectable, type INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator.js';

/** What builds the document from the app's routes: the code that loads @nestjs/swagger. */
export type OpenApiDocumentBuilder = (app: INestApplication) => OpenAPIObject;

/**
 * The generated document, built on its first request rather than at start-up: building it
 * loads @nestjs/swagger (400+ modules, about 11 MB), which a server nobody asks for its
 * document never needs. createHttpApp hands over the app and how to load the builder.
 */
@Injectable()
export class OpenApiDocumentStore {
  private source: { app: INestApplication; load: () => Promise<OpenApiDocumentBuilder> } | undefined;
  private built: Promise<OpenAPIObject> | undefined;

  /** The app whose routes the document describes, and the dynamic import of the builder. */
  buildFrom(app: INestApplication, load: () => Promise<OpenApiDocumentBuilder>): void {
    this.source = { app, load };
  }

  /**
   * The document, built on the first call; concurrent first calls share that one build. A
   * failed build is not kept: its callers get the error, and the next call tries again.
   */
  document(): Promise<OpenAPIObject> {
    this.built ??= this.build().catch((error: unknown) => {
      this.built = undefined;
      throw error;
    });
    return this.built;
  }

  private async build(): Promise<OpenAPIObject> {
    if (this.source === undefined) throw new Error('the OpenAPI document is built from the app createHttpApp makes');
    const { app, load } = this.source;
    const build = await load();
    return build(app);
  }
}

@Public()
@Controller()
export class OpenApiController {
  constructor(private readonly store: OpenApiDocumentStore) {}

  @Get('openapi.json')
  @Header('cache-control', 'no-cache')
  document(): Promise<OpenAPIObject> {
    return this.store.document();
  }
}
