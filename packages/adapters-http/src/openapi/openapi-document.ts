import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ERROR_CATALOGUE, statusOf } from '../errors/error-codes.js';
import { CLOSED_SCHEMAS } from './api-schemas.js';

const ERROR_TABLE = [
  '| status | error | when |',
  '|---|---|---|',
  ...ERROR_CATALOGUE.map(({ code, when }) => `| ${statusOf(code)} | ${code} | ${when} |`),
].join('\n');

export const PLANTS_TAG = 'plants';
export const OPERATIONS_TAG = 'operations';

/**
 * The contract of docs/http-api.md and docs/errors.md as OpenAPI 3.1, generated from the
 * controllers once their describers (`*.openapi.ts`, openapi/api-*.ts) have decorated them
 * (../openapi-document-builder.ts), and served at /openapi.json.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Plant Store')
    .setVersion('1.0.0')
    .setDescription(
      'Creates, reads and lists plants. Checks run in this order: routing (404, 405), the bearer token (401), its scope (403), then the request itself (its parameters or body, 400 and the rest). Every non-2xx response has the `Error` body; `error` is a stable code whose first three digits are the HTTP status:\n\n' +
        ERROR_TABLE,
    )
    .setLicense('MIT', 'https://opensource.org/license/mit')
    .addServer('/', 'This server')
    .addTag(
      PLANTS_TAG,
      'The plant store: create plants (bearer token with the `plants:write` scope), read and list them (`plants:read`).',
    )
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
