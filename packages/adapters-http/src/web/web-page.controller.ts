import { Controller, Get, Headers, NotFoundException, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/public.decorator.js';
import { matchesIfNoneMatch } from '../http/entity-tags.js';
import { ASSET_CACHE_CONTROL, PAGE_CACHE_CONTROL, PAGE_SECURITY_POLICY } from './page-security-policy.js';
import { WebPageFiles } from './web-page-files.js';

/**
 * The catalogue page at `/` and its assets at `/assets/<name>`, from this origin: the page
 * calls the API beside it, so no CORS. Public: the page asks for a token itself, and sends it
 * only to the API. Not an operation of the API, so not in the OpenAPI document.
 */
@Public()
@Controller()
export class WebPageController {
  constructor(private readonly files: WebPageFiles) {}

  @Get()
  page(@Headers('if-none-match') ifNoneMatch: string | undefined, @Res() reply: FastifyReply): void {
    const { index } = this.files;
    void reply
      .header('content-security-policy', PAGE_SECURITY_POLICY)
      .header('cache-control', PAGE_CACHE_CONTROL)
      .header('etag', index.etag);
    if (matchesIfNoneMatch(ifNoneMatch, index.etag)) void reply.code(304).send();
    else void reply.header('content-type', index.contentType).send(index.body);
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() reply: FastifyReply): void {
    const asset = this.files.asset(name);
    if (asset === undefined) throw new NotFoundException();
    void reply
      .header('content-type', asset.contentType)
      .header('cache-control', ASSET_CACHE_CONTROL)
      .header('etag', asset.etag)
      .send(asset.body);
  }
}
