import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';

export const MiB = 1024 * 1024;

/** The two clients most Node programs use: Node's `fetch` (undici) and `node:http`. */
export type BodyClient = 'fetch' | 'node:http';

export interface LargeBodyRequest {
  readonly method: string;
  /** Path and query, e.g. `/plants`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bytes: number;
  /** `Transfer-Encoding: chunked` (a streamed body) rather than `Content-Length`. */
  readonly chunked: boolean;
}

const CHUNK = new Uint8Array(64 * 1024).fill(0x61);

/**
 * Sends a body of `bytes` bytes and tells what came back: `413 41301` (status and the Error
 * body's code), or the error that ended the attempt instead (`EPIPE`, `ECONNRESET`…), never
 * thrown: a test counts these.
 */
export function sendLargeBody(client: BodyClient, url: string, sent: LargeBodyRequest): Promise<string> {
  return client === 'fetch' ? viaFetch(url, sent) : viaNodeHttp(url, sent);
}

async function viaFetch(url: string, sent: LargeBodyRequest): Promise<string> {
  try {
    const response = await fetch(`${url}${sent.path}`, {
      method: sent.method,
      headers: sent.headers,
      // A stream goes out chunked; bytes go out with their Content-Length.
      body: sent.chunked ? streamOf(sent.bytes) : Buffer.alloc(sent.bytes, 0x61),
      duplex: 'half',
    });
    return outcome(response.status, await response.text());
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? String(error);
  }
}

function viaNodeHttp(url: string, sent: LargeBodyRequest): Promise<string> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: string): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const headers: OutgoingHttpHeaders = { ...sent.headers };
    if (!sent.chunked) headers['content-length'] = sent.bytes;
    const call = httpRequest(`${url}${sent.path}`, { method: sent.method, headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => settle(outcome(response.statusCode ?? 0, text)));
      response.on('error', (error: NodeJS.ErrnoException) => settle(error.code ?? error.message));
    });
    call.on('error', (error: NodeJS.ErrnoException) => settle(error.code ?? error.message));
    for (let at = 0; at < sent.bytes; at += CHUNK.length)
      call.write(CHUNK.subarray(0, Math.min(CHUNK.length, sent.bytes - at)));
    call.end();
  });
}

function streamOf(bytes: number): ReadableStream<Uint8Array> {
  let left = bytes;
  return new ReadableStream({
    pull(controller) {
      if (left === 0) return controller.close();
      const piece = CHUNK.subarray(0, Math.min(CHUNK.length, left));
      left -= piece.length;
      controller.enqueue(piece);
    },
  });
}

function outcome(status: number, text: string): string {
  try {
    return `${status} ${String((JSON.parse(text) as { error?: unknown }).error)}`;
  } catch {
    return `${status} (not an Error body)`;
  }
}

/** How many attempts ended each way, e.g. `{ "413 41301": 20 }`. */
export async function tally(attempts: number, attempt: () => Promise<string>): Promise<Record<string, number>> {
  const seen: Record<string, number> = {};
  // One after another, as a client retrying would: concurrency is not what is under test.
  for (let i = 0; i < attempts; i++) {
    const result = await attempt();
    seen[result] = (seen[result] ?? 0) + 1;
  }
  return seen;
}
