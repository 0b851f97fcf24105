import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors/api-error.js';
import { Failures } from '../errors/failures.js';

function tooLarge(limitBytes: number): ApiError {
  return new ApiError(Failures.bodyOverLimit(limitBytes));
}

/**
 * Reads the raw body after authentication (Fastify's own parsing would run before the
 * guards). Stops at the limit: a declared Content-Length over it is refused unread.
 * Plain listeners rather than `for await` or `stream.finished`: the async iterator costs a
 * promise and a turn per chunk, and `finished` a dozen closures, on every request.
 */
export function readBody(raw: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) return Promise.reject(tooLarge(limitBytes));
  // The client went away (or the request timed out) while the guards ran.
  if (raw.destroyed) return Promise.reject(new ApiError(Failures.incompleteBody));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stopListening = (): void => {
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onCutShort);
      raw.off('close', onCutShort);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received <= limitBytes) {
        chunks.push(chunk);
        return;
      }
      stopListening();
      // The rest is never parsed: destroy the request as leaving a `for await` early does (Node's
      // stream destroyer), with its socket detached first, so the connection lives on to carry
      // the 413; it then closes in stages, discarding what still comes (http/staged-close.ts).
      (raw as { socket: IncomingMessage['socket'] | null }).socket = null;
      raw.destroy();
      reject(tooLarge(limitBytes));
    };
    const onEnd = (): void => {
      stopListening();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    };
    // The stream fails or closes before its end ("aborted", a timeout mid-body) when the client
    // goes away: the client's doing, not an internal failure to log and count as a 500.
    const onCutShort = (): void => {
      stopListening();
      reject(new ApiError(Failures.incompleteBody));
    };
    raw.on('data', onData);
    raw.on('end', onEnd);
    raw.on('error', onCutShort);
    raw.on('close', onCutShort);
  });
}
