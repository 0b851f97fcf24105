import { connect } from 'node:net';

/** One HTTP/1.1 response read off the wire (interim 1xx responses are left out). */
export interface WireResponse {
  readonly status: number;
  /** Lower-case names; a repeated header keeps its last value. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly text: string;
}

/**
 * How the connection ended: the server closed it, reset it, the client stopped after the
 * responses it wanted (`kept-open`), or the deadline passed with the server still silent
 * about the rest (`deadline`).
 */
export type Ending = 'closed' | 'reset' | 'kept-open' | 'deadline';

export interface Exchange {
  readonly responses: readonly WireResponse[];
  readonly ending: Ending;
  /** Bytes after the last complete response (a truncated response shows up here). */
  readonly trailing: Buffer;
}

/** Bytes to send, or a pause between them (for slow clients). */
export type Step = string | Buffer | { readonly pauseMs: number };

export interface ExchangeOptions {
  /** Hard bound on the whole exchange; the socket is destroyed when it passes. Default 5 s. */
  readonly deadlineMs?: number;
  /** Half-close the connection after the last step, as a client with nothing more to say. Default false. */
  readonly endAfterSending?: boolean;
  /** Stop (and destroy the socket) once this many complete responses arrived. */
  readonly stopAfterResponses?: number;
}

/**
 * Sends bytes exactly as given to 127.0.0.1 and reads every response until the server
 * closes the connection, the wanted number of responses arrived, or the deadline passes.
 * Never rejects for what the server does: resets and silence are reported in `ending`.
 */
export function exchange(url: string, steps: Step | readonly Step[], options: ExchangeOptions = {}): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  if (hostname !== '127.0.0.1') throw new Error(`adversarial traffic goes to 127.0.0.1 only, not ${hostname}`);
  const script = Array.isArray(steps) ? (steps as readonly Step[]) : [steps as Step];
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    let settled = false;
    let ending: Ending = 'closed';
    const finish = (why: Ending) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      socket.destroy();
      const { responses, trailing } = parseResponses(Buffer.concat(received), true);
      resolve({ responses, ending: why, trailing });
    };
    const deadline = setTimeout(() => finish('deadline'), options.deadlineMs ?? 5_000);
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      const wanted = options.stopAfterResponses;
      if (wanted !== undefined && parseResponses(Buffer.concat(received), false).responses.length >= wanted)
        finish('kept-open');
    });
    // ECONNRESET / EPIPE: the server dropped the connection while data was in flight.
    socket.on('error', () => {
      ending = 'reset';
    });
    socket.on('close', () => finish(ending));
    socket.on('connect', () => {
      void (async () => {
        for (const step of script) {
          if (settled || socket.destroyed || !socket.writable) return;
          if (typeof step === 'object' && 'pauseMs' in step) {
            await new Promise((r) => setTimeout(r, step.pauseMs));
          } else {
            await new Promise<void>((r) => socket.write(step, () => r()));
          }
        }
        if (options.endAfterSending && !socket.destroyed && socket.writable) socket.end();
      })();
    });
  });
}

/** Splits a byte stream into complete responses; with `atEof`, a body without length ends at EOF. */
export function parseResponses(data: Buffer, atEof: boolean): { responses: WireResponse[]; trailing: Buffer } {
  const responses: WireResponse[] = [];
  let offset = 0;
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', offset);
    if (headEnd < 0) break;
    const head = data.subarray(offset, headEnd).toString('latin1');
    const [statusLine = '', ...lines] = head.split('\r\n');
    const status = Number(statusLine.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let cursor = headEnd + 4;
    if (status >= 100 && status < 200) {
      offset = cursor;
      continue;
    }
    let body: Buffer;
    if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
      const decoded = decodeChunked(data, cursor);
      if (decoded === undefined) break;
      ({ body, end: cursor } = decoded);
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (data.length < cursor + length) break;
      body = data.subarray(cursor, cursor + length);
      cursor += length;
    } else {
      if (!atEof) break;
      body = data.subarray(cursor);
      cursor = data.length;
    }
    responses.push({ status, headers, body, text: body.toString('utf8') });
    offset = cursor;
  }
  return { responses, trailing: data.subarray(offset) };
}

function decodeChunked(data: Buffer, start: number): { body: Buffer; end: number } | undefined {
  const parts: Buffer[] = [];
  let cursor = start;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', cursor);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.subarray(cursor, lineEnd).toString('latin1').split(';')[0] ?? '', 16);
    if (!Number.isFinite(size)) return undefined;
    cursor = lineEnd + 2;
    if (size === 0) {
      const trailerEnd = data.indexOf('\r\n\r\n', cursor - 2);
      if (trailerEnd < 0) return undefined;
      return { body: Buffer.concat(parts), end: trailerEnd + 4 };
    }
    if (data.length < cursor + size + 2) return undefined;
    parts.push(data.subarray(cursor, cursor + size));
    cursor += size + 2;
  }
}

export interface PostOptions {
  readonly path?: string;
  /** A full Authorization header value; omitted when undefined. */
  readonly authorization?: string | undefined;
  /** Content-Type value(s); omitted when undefined, repeated when an array. */
  readonly contentType?: string | readonly string[] | undefined;
  readonly extraHeaders?: ReadonlyArray<readonly [string, string]>;
  /** Content-Length to declare; defaults to the true length. `null` sends none. */
  readonly contentLength?: number | null;
  /** Keep the connection open for more requests instead of `Connection: close`. */
  readonly keepAlive?: boolean;
}

/** A POST request as raw bytes: exactly the headers asked for, body byte-exact. */
export function postBytes(body: string | Buffer, options: PostOptions = {}): Buffer {
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const lines = [`POST ${options.path ?? '/plants'} HTTP/1.1`, 'Host: 127.0.0.1'];
  if (options.authorization !== undefined) lines.push(`Authorization: ${options.authorization}`);
  const types =
    options.contentType === undefined
      ? []
      : typeof options.contentType === 'string'
        ? [options.contentType]
        : options.contentType;
  for (const type of types) lines.push(`Content-Type: ${type}`);
  for (const [name, value] of options.extraHeaders ?? []) lines.push(`${name}: ${value}`);
  const length = options.contentLength === undefined ? payload.length : options.contentLength;
  if (length !== null) lines.push(`Content-Length: ${length}`);
  if (!options.keepAlive) lines.push('Connection: close');
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'), payload]);
}
