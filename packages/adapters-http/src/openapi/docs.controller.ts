import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Controller, Get, Header, NotFoundException, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/public.decorator.js';

// Swagger UI is served from its npm package: the page works offline, nothing comes from a CDN.
// Only its location is resolved: requiring the package would load its 1.7 MB bundle into the heap.
const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Plant Store API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/docs-init.js"></script>
</body>
</html>
`;

// validatorUrl: null keeps the page from calling the public validator service.
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', validatorUrl: null, deepLinking: true, defaultModelsExpandDepth: 2 });\n`;

const ASSETS: Record<string, { file?: string; body?: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'docs-init.js': { body: INIT, type: 'text/javascript; charset=utf-8' },
};

@Public()
@Controller('docs')
export class DocsController {
  private readonly cache = new Map<string, string>();

  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  page(): string {
    return PAGE;
  }

  @Get(':asset')
  asset(@Param('asset') name: string, @Res() reply: FastifyReply): void {
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (asset === undefined) throw new NotFoundException();
    let body = this.cache.get(name);
    if (body === undefined) {
      body = asset.body ?? readFileSync(join(swaggerUiDir, asset.file!), 'utf8');
      this.cache.set(name, body);
    }
    void reply.header('content-type', asset.type).header('cache-control', 'public, max-age=3600').send(body);
  }
}
