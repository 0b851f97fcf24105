import { applyDecorators } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
  type SchemaObject,
} from '@nestjs/swagger';
import { ChangesQuery, MAX_CURSOR_LENGTH } from '@plantstore/domain';
import { ApiReadFailures } from '../../openapi/api-responses.js';
import { describeController } from '../../openapi/describe-controller.js';
import { PLANTS_TAG } from '../../openapi/openapi-document.js';
import { limitQuery } from '../plant.openapi.js';
import { FollowChangesController } from './follow-changes.controller.js';

/*
 * What the OpenAPI document says of GET /plants/changes, beside the controller that serves it
 * (changes.controller.ts).
 */

const ID = {
  type: 'integer',
  format: 'int64',
  description:
    'The plant id, written with its exact digits: values beyond 2^53 need a JSON parser that keeps big integers.',
} as const;
const VERSION = {
  type: 'integer',
  minimum: 1,
  description: 'The plant’s version as its events carry it: a follower keeps the highest it has seen.',
} as const;

const LIVE_ENTRY: SchemaObject = {
  type: 'object',
  required: ['id', 'version', 'name'],
  additionalProperties: false,
  properties: {
    id: ID,
    version: VERSION,
    name: { type: 'string', minLength: 1 },
    tag: { type: 'string', minLength: 1, description: 'Absent when the plant has none.' },
  },
};
const DELETED_ENTRY: SchemaObject = {
  type: 'object',
  required: ['id', 'version', 'deleted'],
  additionalProperties: false,
  properties: { id: ID, version: VERSION, deleted: { type: 'boolean', enum: [true] } },
};
const CURSOR = {
  type: 'string',
  maxLength: MAX_CURSOR_LENGTH,
  pattern: '^[0-9a-z.-]+$',
  description: 'An opaque cursor: valid for ever, on every instance.',
} as const;

const PAGE_EXAMPLE = {
  changes: [
    { id: 1, version: 2, name: 'Monstera deliciosa', tag: 'tropical' },
    { id: 2, version: 3, deleted: true },
  ],
  next: '1.0.18.2.1rdsvi1',
};
const STREAM_EXAMPLE =
  'retry: 1000\n\nid: 1.0.18.1.1qju2f4\nevent: change\ndata: {"id":1,"version":2,"name":"Monstera deliciosa","tag":"tropical"}\n\n: still here\n\n';

export function DocumentFollowChanges(): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      operationId: 'followChanges',
      summary: 'Follow the catalogue’s changes',
      description:
        'Every plant changed after the cursor, once, at its latest state (a deleted plant as `{"id", "version", "deleted": true}`), in the order of its last change. Ask again with `next` to go on: a follower that keeps doing so misses no change, on any instance, and once writes stop its copy equals the store. A cursor stays valid for ever. With `Accept: text/event-stream` the same route answers a stream of Server-Sent Events: first every change after the cursor (`after`, or `Last-Event-ID`, which wins), then each change as it commits; each event has `id: <cursor after it>`, `event: change` and `data: <entry>`; a comment line follows 15 s without an event. A stream ends when its token is revoked or expires, when its follower reads too slowly, or when the server stops: reconnect with the last id. Other methods answer 405 with `Allow: GET, HEAD`.',
    }),
    ApiBearerAuth('bearerAuth'),
    ApiProduces('application/json', 'text/event-stream'),
    ApiQuery({
      name: 'after',
      required: false,
      schema: CURSOR,
      description:
        'A cursor from an earlier answer (`next`, an event’s id, or the `Feed-Cursor` header of a `GET /plants` page); from the beginning when absent. One this store cannot have issued (malformed, altered, or beyond its newest change) is refused with 40004.',
    }),
    limitQuery(
      ChangesQuery,
      `Entries per page at most: 1 to ${ChangesQuery.MAX_LIMIT} in canonical decimal form; ${ChangesQuery.DEFAULT_LIMIT} when absent. A stream reads the first page with it.`,
    ),
    ApiHeader({
      name: 'Last-Event-ID',
      required: false,
      description:
        'For a stream: the id of the last event read, as EventSource sends it on reconnecting. It wins over `after`; refused like it (40004, naming Last-Event-ID).',
    }),
    ApiHeader({
      name: 'Accept',
      required: false,
      description: '`text/event-stream` for the live stream; a JSON page otherwise.',
    }),
    ApiOkResponse({
      description:
        'A page of changes (JSON), or the live stream (text/event-stream, with `Cache-Control: no-cache` and `X-Accel-Buffering: no`).',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['changes', 'next'],
            additionalProperties: false,
            properties: {
              changes: { type: 'array', items: { oneOf: [LIVE_ENTRY, DELETED_ENTRY] } },
              next: CURSOR,
            },
          },
          example: PAGE_EXAMPLE,
        },
        'text/event-stream': {
          schema: { type: 'string', description: 'Server-Sent Events, one `change` event per entry.' },
          example: STREAM_EXAMPLE,
        },
      },
    }),
    ApiReadFailures('changes'),
  );
}

/** What the document says of GET /plants/changes, applied to its controller by the document's builder (../../openapi-document-builder.ts). */
export function describeFollowChanges(): void {
  describeController(FollowChangesController, {
    controller: [ApiTags(PLANTS_TAG)],
    methods: { follow: [DocumentFollowChanges()] },
  });
}
