import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream';
import { ApiError } from '../errors/api-error.js';
import { Failures } from '../errors/failures.js';

function tooLarge(limitBytes: number): ApiError {
  return new ApiError(Failures.bodyOverLimit(limitBytes));
}

/**
 * Reads the raw body after authentication (Fastify's own parsing would run before the
 * guards). Stops at the limit: a declared Content-Length over it is refused unread.
 * Plain 'data' listeners rather than `for await`: the async iterator costs a promise and a
 * turn per chunk on every request.
 */
export function readBody(raw: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) return Promise.reject(tooLarge(limitBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received <= limitBytes) {
        chunks.push(chunk);
        return;
      }
      stopWatching();
      raw.off('data', onData);
      // The rest is never read: destroy the request as leaving a `for await` early does (Node's
      // stream destroyer): with its socket detached first, so the connection lives on to carry the 413.
      (raw as { socket: IncomingMessage['socket'] | null }).socket = null;
      raw.destroy();
      reject(tooLarge(limitBytes));
    };
    raw.on('data', onData);
    // The stream fails or closes early ("aborted", premature close) when the client goes away
    // or the request times out mid-body: the client's doing, not an internal failure to log
    // and count as a 500.
    const stopWatching = finished(raw, (error) => {
      stopWatching();
      raw.off('data', onData);
      if (error) reject(new ApiError(Failures.incompleteBody));
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    });
  });
}
