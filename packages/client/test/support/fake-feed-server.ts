import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the change feed of the API on 127.0.0.1, as its contract describes it: JSON
 * pages `{changes, next}` and a `text/event-stream` that sends every change after the cursor
 * (`Last-Event-ID` or `after`), then each change as it is pushed. Cursors are `c<n>`, `c0`
 * before the first change. Tests cut streams, stop the server or answer with failures.
 */
export class FakeFeedServer {
  /** Each change as its JSON text (the server writes ids as numbers with every digit). */
  private readonly entries: string[] = [];
  private readonly streams = new Set<ServerResponse>();
  private readonly server: Server;
  /** What each request asked for, in order. */
  readonly requests: { readonly url: string; readonly headers: IncomingHttpHeaders }[] = [];
  /** Answers to give instead of the feed, one per request, first to last. */
  readonly failures: { status: number; body: string; headers?: Record<string, string> }[] = [];
  /** What an opened stream sends before anything else (a comment, a partial event…). */
  streamPreamble = '';
  /** A stream that sends none of its backlog and no change: it stays silent. */
  silent = false;
  url = '';

  constructor() {
    this.server = createServer((request, response) => {
      this.requests.push({ url: request.url ?? '', headers: request.headers });
      const failure = this.failures.shift();
      if (failure !== undefined) {
        response.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers });
        response.end(failure.body);
        return;
      }
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const after = cursorIndex(
        (request.headers['last-event-id'] as string | undefined) ?? url.searchParams.get('after') ?? 'c0',
      );
      if (request.headers.accept === 'text/event-stream') return this.stream(response, after);
      const limit = Number(url.searchParams.get('limit') ?? '100');
      const page = this.entries.slice(after, after + limit);
      const next = `c${after + page.length}`;
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      response.end(`{"changes":[${page.join(',')}],"next":"${next}"}`);
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** A change committed: stored, and sent to every open stream. */
  push(entry: string): void {
    this.entries.push(entry);
    const event = eventText(entry, this.entries.length);
    if (!this.silent) for (const stream of this.streams) stream.write(event);
  }

  /** A comment line to every open stream: what the API sends to keep an idle stream open. */
  keepAlive(): void {
    for (const stream of this.streams) stream.write(': keep-alive\n\n');
  }

  /** Every open stream is cut, as a proxy or a network would. */
  cutStreams(): void {
    for (const stream of this.streams) stream.socket?.destroy();
    this.streams.clear();
  }

  get openStreams(): number {
    return this.streams.size;
  }

  /** Resolves once `count` requests have come. */
  async requestsReach(count: number): Promise<void> {
    while (this.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  async stop(): Promise<void> {
    this.cutStreams();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private stream(response: ServerResponse, after: number): void {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    response.write(this.streamPreamble);
    if (!this.silent)
      for (let index = after; index < this.entries.length; index++)
        response.write(eventText(this.entries[index]!, index + 1));
    this.streams.add(response);
    response.on('close', () => this.streams.delete(response));
  }
}

function cursorIndex(cursor: string): number {
  const match = /^c([0-9]+)$/.exec(cursor);
  if (match === null) throw new Error(`the fake feed issued no cursor ${cursor}`);
  return Number(match[1]);
}

function eventText(entry: string, position: number): string {
  return `id: c${position}\nevent: change\ndata: ${entry}\n\n`;
}
