import { PassThrough } from 'node:stream';
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ChangeCursor,
  PlantQueryError,
  type ChangesQuery,
  type FollowChanges,
  type FollowChangesResult,
} from '@plantstore/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readBearerCredentials } from '../auth/bearer-credentials.js';
import { RequireScope } from '../auth/require-scope.decorator.js';
import { ApiError } from '../errors/api-error.js';
import { Failures } from '../errors/failures.js';
import { releaseSharedPlace } from '../http/load-shedding.js';
import { PLANTS_TAG } from '../openapi/openapi-document.js';
import { FOLLOW_CHANGES } from '../ports/di-tokens.js';
import { HTTP_EVENTS, type HttpEvents } from '../ports/http-events.js';
import { ChangeStreamHub } from './change-stream-hub.js';
import { DocumentFollowChanges } from './changes-operation.js';
import { changesQueryOf, wantsEventStream } from './changes-request.js';
import { changesPageBody } from './feed-entry-text.js';

const JSON_UTF8 = 'application/json; charset=utf-8';
/** A stream's head: no cache or proxy holds its events back (nginx reads X-Accel-Buffering). */
export const EVENT_STREAM_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
} as const;
/** The first bytes of a stream: they send its head at once, and tell EventSource to reconnect after a second. */
const STREAM_OPENING = 'retry: 1000\n\n';

type FeedPage = Extract<FollowChangesResult, { outcome: 'page' }>;

/**
 * GET /plants/changes: the change feed a page at a time as JSON, or, for `Accept:
 * text/event-stream`, as a stream of Server-Sent Events that goes on as changes commit
 * (docs/changes.md). The stream's first page is read here, so a cursor the store cannot have
 * issued is still answered 400; the hub (change-stream-hub.ts) writes the rest.
 */
@ApiTags(PLANTS_TAG)
@Controller('plants')
export class ChangesController {
  constructor(
    @Inject(FOLLOW_CHANGES) private readonly followChanges: FollowChanges,
    private readonly hub: ChangeStreamHub,
    @Inject(HTTP_EVENTS) private readonly events: HttpEvents,
  ) {}

  @Get('changes')
  @RequireScope('plants:read')
  @DocumentFollowChanges()
  async follow(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const stream = wantsEventStream(request.headers.accept);
    const lastEventId = request.headers['last-event-id'];
    const query = changesQueryOf(
      (request.query ?? {}) as Record<string, string | string[]>,
      stream && typeof lastEventId === 'string' ? lastEventId : undefined,
    );
    if (!stream) {
      const page = await this.page(query);
      this.events.changesSent(page.changes.length);
      await reply.code(200).header('content-type', JSON_UTF8).send(changesPageBody(page.changes, page.next));
    } else if (request.method === 'HEAD') {
      await this.page(query);
      await reply.code(200).headers(EVENT_STREAM_HEADERS).send();
    } else await this.stream(request, reply, query);
  }

  private async page(query: ChangesQuery): Promise<FeedPage> {
    const result = await this.followChanges.execute(query);
    if (result.outcome === 'unknown-cursor')
      throw new PlantQueryError([
        {
          field: result.parameter,
          message: `${result.parameter} must be a cursor this store handed out (it lies beyond the newest change)`,
        },
      ]);
    return result;
  }

  private async stream(request: FastifyRequest, reply: FastifyReply, query: ChangesQuery): Promise<void> {
    if (!this.hub.reserve()) {
      this.events.changeStreamRefused();
      throw new ApiError(Failures.tooManyChangeStreams);
    }
    let page: FeedPage;
    try {
      page = await this.page(query);
    } catch (error) {
      this.hub.release();
      throw error;
    }
    const credentials = readBearerCredentials(request.raw);
    // The guards let only a request with one bearer token this far.
    const token = credentials.kind === 'token' ? credentials.token : '';
    // A stream holds its client's place until it ends, not one of the places that bound work in progress.
    releaseSharedPlace(request.raw);
    // Idle for up to 15 s between events: the server's idle-socket cut-off is not for it.
    request.raw.socket.setTimeout(0);
    request.raw.socket.setNoDelay(true);
    const sink = new PassThrough();
    sink.write(STREAM_OPENING);
    void reply.code(200).headers(EVENT_STREAM_HEADERS).send(sink);
    this.hub.start({
      sink,
      response: reply.raw,
      token,
      firstPage: page.changes,
      next: ChangeCursor.decode(page.next)!,
      firstPageFull: page.changes.length === query.limit,
    });
  }
}
