import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

export interface ServerSentEvent {
  readonly id: string | undefined;
  readonly event: string | undefined;
  readonly data: string;
}

/**
 * A follower of a text/event-stream answer, as EventSource reads one: it parses events and
 * comment lines as they arrive, and lets a test wait for a number of them.
 */
export class EventStreamReader {
  readonly events: ServerSentEvent[] = [];
  comments = 0;
  ended = false;
  private buffer = '';
  private waiters: Array<() => void> = [];

  constructor(readonly response: IncomingMessage) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.take(chunk));
    const end = () => {
      this.ended = true;
      this.wake();
    };
    response.on('end', end);
    response.on('close', end);
    response.on('error', end);
  }

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  get headers(): IncomingHttpHeaders {
    return this.response.headers;
  }

  /** Resolves once `test` holds (checked on each chunk and at the end), or rejects after `timeoutMs`. */
  until(test: () => boolean, timeoutMs = 10_000): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out: ${this.events.length} events, ended ${this.ended}`)),
        timeoutMs,
      );
      const check = () => {
        if (!test()) return void this.waiters.push(check);
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(check);
    });
  }

  untilEvents(count: number, timeoutMs?: number): Promise<void> {
    return this.until(() => this.events.length >= count, timeoutMs);
  }

  untilEnded(timeoutMs?: number): Promise<void> {
    return this.until(() => this.ended, timeoutMs);
  }

  close(): void {
    this.response.destroy();
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) !== -1) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      this.parse(block);
    }
    this.wake();
  }

  private parse(block: string): void {
    const fields = new Map<string, string[]>();
    let comment = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        comment = true;
        continue;
      }
      const colon = line.indexOf(':');
      const name = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      fields.set(name, [...(fields.get(name) ?? []), value]);
    }
    if (fields.has('data'))
      this.events.push({
        id: fields.get('id')?.[0],
        event: fields.get('event')?.[0],
        data: fields.get('data')!.join('\n'),
      });
    else if (comment) this.comments++;
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const check of waiting) check();
  }
}

/** Opens a stream: GET with `Accept: text/event-stream`; resolves with the answer's reader once its head arrives. */
export function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStreamReader> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) =>
      resolve(new EventStreamReader(response)),
    );
    request.on('error', reject);
    request.end();
  });
}
