import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ErrorCode } from '../errors/error-codes.js';
import { CLOSED_SCHEMAS } from './api-schemas.js';

const ERROR_TABLE = `| status | error | when |
|---|---|---|
| 400 | ${ErrorCode.MalformedRequest} | malformed HTTP request |
| 400 | ${ErrorCode.InvalidJson} | body empty, not UTF-8 or not valid JSON |
| 400 | ${ErrorCode.NotAnObject} | body is JSON but not an object |
| 400 | ${ErrorCode.ValidationFailed} | field validation failed (every problem listed in \`message\`) |
| 401 | ${ErrorCode.MissingToken} | no bearer token in the Authorization header |
| 401 | ${ErrorCode.InvalidToken} | token malformed, unknown, expired or revoked |
| 403 | ${ErrorCode.InsufficientScope} | token lacks the \`plants:write\` scope |
| 404 | ${ErrorCode.RouteNotFound} | no such route |
| 405 | ${ErrorCode.MethodNotAllowed} | method not allowed (\`Allow\` lists the methods); \`CONNECT\` |
| 408 | ${ErrorCode.RequestTimeout} | the request took too long to arrive |
| 409 | ${ErrorCode.PlantConflict} | the id exists with a different name or tag |
| 413 | ${ErrorCode.PayloadTooLarge} | body larger than the limit (64 KiB by default) |
| 415 | ${ErrorCode.UnsupportedMediaType} | Content-Type is not JSON, or the body has a Content-Encoding (send it uncompressed) |
| 429 | ${ErrorCode.RateLimited} | rate limit exceeded (\`Retry-After\`) |
| 431 | ${ErrorCode.HeadersTooLarge} | request headers too large |
| 500 | ${ErrorCode.Internal} | unexpected internal failure |
| 501 | ${ErrorCode.TransferCodingNotImplemented} | a Transfer-Encoding other than chunked |
| 503 | ${ErrorCode.Unavailable} | database unavailable or server shutting down (\`Retry-After\`) |
| 505 | ${ErrorCode.HttpVersionNotSupported} | an HTTP version other than 1.x in the request line |`;

export const PLANTS_TAG = 'plants';
export const OPERATIONS_TAG = 'operations';

/**
 * The contract of docs/http-api.md and docs/errors.md as OpenAPI 3.1, generated from the
 * controllers' decorators (openapi/api-*.ts) and served at /openapi.json.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Plant Store')
    .setVersion('1.0.0')
    .setDescription(
      'Creates plants. Every non-2xx response has the `Error` body; `error` is a stable code whose first three digits are the HTTP status:\n\n' +
        ERROR_TABLE,
    )
    .setLicense('MIT', 'https://opensource.org/license/mit')
    .addServer('/', 'This server')
    .addTag(PLANTS_TAG, 'The plant store: create plants (bearer token with the `plants:write` scope).')
    .addTag(OPERATIONS_TAG, 'For operators and orchestrators: health, metrics and this documentation; no token needed.')
    .addSecurity('bearerAuth', {
      type: 'http',
      scheme: 'bearer',
      description: 'An API token (`pst_…`) from `pnpm plantstore token create`.',
    })
    .build();
  // Whoever runs the server answers for it; the project names no address of its own.
  config.info.contact = { name: 'The operators of this Plant Store server' };
  const document = SwaggerModule.createDocument(app, config);
  for (const name of CLOSED_SCHEMAS)
    Object.assign(document.components!.schemas![name]!, { additionalProperties: false });
  // An operation that declares no bearer requirement is @Public(): say so, rather than leave it unstated.
  for (const path of Object.values(document.paths)) {
    for (const operation of [path.get, path.post])
      if (operation && operation.security === undefined) operation.security = [];
  }
  return document;
}
