import { Controller, Get, Header } from '@nestjs/common';
import { Public } from '../auth/public.decorator.js';
import { openApiDocument } from './openapi-document.js';

@Public()
@Controller()
export class OpenApiController {
  @Get('openapi.json')
  @Header('cache-control', 'no-cache')
  document(): typeof openApiDocument {
    return openApiDocument;
  }
}
