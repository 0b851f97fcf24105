import { PassThrough } from 'node:stream';
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import {
  ChangeCursor,
  PlantQueryError,
  type ChangesQuery,
  type FollowChanges,
  type FollowChangesResult,
} from '@plantstore/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readBearerCredentials } from '../../auth/bearer-credentials.js';
import { RequireScope } from '../../auth/require-scope.decorator.js';
import { sendError } from '../../errors/error-reply.js';
import { domainFailure } from '../../errors/failure-of.js';
import { Failures } from '../../errors/failures.js';
import { releaseSharedPlace } from '../../http/load-shedding.js';
import { FOLLOW_CHANGES } from '../../ports/di-tokens.js';
import { HTTP_EVENTS, type HttpEvents } from '../../ports/http-events.js';
import { ChangeStreamHub } from './change-stream-hub.js';
import { changesQueryOf, wantsEventStream } from './changes-request.js';
import { changesPageBody } from './feed-entry-text.js';
import { JSON_UTF8 } from '../plant-representation.js';
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
@Controller('plants')
export class FollowChangesController {
  constructor(
    @Inject(FOLLOW_CHANGES) private readonly followChanges: FollowChanges,
    private readonly hub: ChangeStreamHub,
    @Inject(HTTP_EVENTS) private readonly events: HttpEvents,
  ) {}

  @Get('changes')
  @RequireScope('plants:read')
  async follow(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const stream = wantsEventStream(request.headers.accept);
    const lastEventId = request.headers['last-event-id'];
    const query = changesQueryOf(
      (request.query ?? {}) as Record<string, string | string[]>,
      stream && typeof lastEventId === 'string' ? lastEventId : undefined,
    );
    if (!stream) {
      const page = await this.page(query, reply);
      if (page === undefined) return;
      this.events.changesSent(page.changes.length);
      await reply.code(200).header('content-type', JSON_UTF8).send(changesPageBody(page.changes, page.next));
    } else if (request.method === 'HEAD') {
      if ((await this.page(query, reply)) !== undefined) await reply.code(200).headers(EVENT_STREAM_HEADERS).send();
    } else await this.stream(request, reply, query);
  }

  /** The page after the query's cursor, or undefined once a cursor beyond the newest change was answered 400. */
  private async page(query: ChangesQuery, reply: FastifyReply): Promise<FeedPage | undefined> {
    const result = await this.followChanges.execute(query);
    if (result.outcome === 'page') return result;
    const refused = new PlantQueryError([
      {
        field: result.parameter,
        message: `${result.parameter} must be a cursor this store handed out (it lies beyond the newest change)`,
      },
    ]);
    sendError(reply, domainFailure(refused));
    return undefined;
  }

  private async stream(request: FastifyRequest, reply: FastifyReply, query: ChangesQuery): Promise<void> {
    if (!this.hub.reserve()) {
      this.events.changeStreamRefused();
      return sendError(reply, Failures.tooManyChangeStreams);
    }
    let page: FeedPage | undefined;
    try {
      page = await this.page(query, reply);
    } finally {
      if (page === undefined) this.hub.release();
    }
    if (page === undefined) return;
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
