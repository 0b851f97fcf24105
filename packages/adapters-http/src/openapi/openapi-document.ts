import { ErrorCode } from '../errors/error-codes.js';

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
| 405 | ${ErrorCode.MethodNotAllowed} | method not allowed (\`Allow\` lists the methods) |
| 408 | ${ErrorCode.RequestTimeout} | the request took too long to arrive |
| 409 | ${ErrorCode.PlantConflict} | the id exists with a different name or tag |
| 413 | ${ErrorCode.PayloadTooLarge} | body larger than the limit (64 KiB by default) |
| 415 | ${ErrorCode.UnsupportedMediaType} | Content-Type is not JSON, or the body has a Content-Encoding (send it uncompressed) |
| 429 | ${ErrorCode.RateLimited} | rate limit exceeded (\`Retry-After\`) |
| 431 | ${ErrorCode.HeadersTooLarge} | request headers too large |
| 500 | ${ErrorCode.Internal} | unexpected internal failure |
| 501 | ${ErrorCode.TransferCodingNotImplemented} | a Transfer-Encoding other than chunked |
| 503 | ${ErrorCode.Unavailable} | database unavailable or server shutting down (\`Retry-After\`) |`;

const errorResponse = (description: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const wwwAuthenticate = {
  'WWW-Authenticate': { description: 'RFC 6750 challenge: `Bearer realm="plantstore"`, with `error="…"` when a token was refused.', schema: { type: 'string' } },
};
const retryAfter = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } };
// Any route answers 503 once the server has begun shutting down.
const draining = errorResponse('The server is shutting down (50301).', retryAfter);

/** The contract of docs/http-api.md and docs/errors.md as OpenAPI 3.1, kept by hand so it states exactly what the code does. */
export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Plant Store',
    version: '1.0.0',
    license: { name: 'MIT', identifier: 'MIT' },
    description:
      'Creates plants. Every non-2xx response has the `Error` body; `error` is a stable code whose first three digits are the HTTP status:\n\n' +
      ERROR_TABLE,
  },
  servers: [{ url: '/' }],
  paths: {
    '/plants': {
      post: {
        operationId: 'createPlant',
        summary: 'Create a plant',
        description:
          'Creates a new plant in the store. The id is chosen by the client, so a create is safely retryable: the same id with the same name and tag answers 200 with the stored plant and writes nothing; the same id with different content answers 409.',
        security: [{ bearerAuth: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPlant' } } } },
        responses: {
          '200': { description: 'Plant response (created, or an identical retry).', content: { 'application/json': { schema: { $ref: '#/components/schemas/Plant' } } } },
          '400': errorResponse('Malformed request, invalid JSON, not an object, or invalid fields (40000-40003).'),
          '401': errorResponse('Missing or refused bearer token (40101, 40102).', wwwAuthenticate),
          '403': errorResponse('The token lacks the plants:write scope (40301).', wwwAuthenticate),
          '405': errorResponse('Method not allowed (40501).', { Allow: { schema: { type: 'string' } } }),
          '408': errorResponse('The request took too long to arrive (40801).'),
          '409': errorResponse('The id exists with a different name or tag (40901).'),
          '413': errorResponse('Body larger than the limit (41301).'),
          '415': errorResponse('Content-Type is not JSON, or the body is content-coded (41501).'),
          '429': errorResponse('Rate limit exceeded (42901).', retryAfter),
          '431': errorResponse('Request headers too large (43101).'),
          '500': errorResponse('Unexpected internal failure (50001).'),
          '501': errorResponse('A Transfer-Encoding other than chunked (50101).'),
          '503': errorResponse('Database unavailable or shutting down (50301).', retryAfter),
        },
      },
    },
    '/healthz': {
      get: {
        operationId: 'liveness',
        summary: 'Liveness: the process is up',
        security: [],
        responses: { '200': { description: 'Alive.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } } }, '503': draining },
      },
    },
    '/readyz': {
      get: {
        operationId: 'readiness',
        summary: 'Readiness: the database answers and the server is not shutting down',
        security: [],
        responses: {
          '200': { description: 'Ready.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } } },
          '503': errorResponse('Database unreachable or shutting down (50301).', retryAfter),
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        summary: 'Prometheus metrics',
        security: [],
        responses: { '200': { description: 'Prometheus text exposition format.', content: { 'text/plain': { schema: { type: 'string' } } } }, '503': draining },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'openApiDocument',
        summary: 'This document',
        security: [],
        responses: { '200': { description: 'OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } }, '503': draining },
      },
    },
    '/docs': {
      get: {
        operationId: 'docsPage',
        summary: 'Human-readable API documentation (Swagger UI, served offline)',
        security: [],
        responses: { '200': { description: 'HTML page.', content: { 'text/html': { schema: { type: 'string' } } } }, '503': draining },
      },
    },
  },
  components: {
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token (`pst_…`) from `pnpm plantstore token create`.' } },
    schemas: {
      Plant: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 200, description: 'The name of the plant: 1 to 200 Unicode code points, not only white space, no control characters.' },
          tag: { type: 'string', minLength: 1, maxLength: 64, description: 'Tag that specifies the type of the plant: 1 to 64 code points; absent when the plant has none.' },
        },
        additionalProperties: false,
      },
      NewPlant: {
        description: 'A Plant plus its required id.',
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: { type: 'integer', format: 'int64', description: 'Identification number of the plant: any integer in the int64 range, kept exactly (1.0 and 1e2 are integers).' },
          name: { $ref: '#/components/schemas/Plant/properties/name' },
          tag: { $ref: '#/components/schemas/Plant/properties/tag' },
        },
      },
      Health: {
        type: 'object',
        required: ['status'],
        properties: { status: { type: 'string', enum: ['ok'] } },
      },
      Error: {
        type: 'object',
        required: ['error', 'message'],
        properties: {
          error: { type: 'integer', format: 'int32', description: 'Stable application error code (see the table in the API description).' },
          message: { type: 'string', description: 'What went wrong, as a sentence a person can act on.' },
        },
        additionalProperties: false,
      },
    },
  },
} as const;
