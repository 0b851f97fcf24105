import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors/api-error.js';
import { Failures } from '../errors/failures.js';

function tooLarge(limitBytes: number): ApiError {
  return new ApiError(Failures.bodyOverLimit(limitBytes));
}

/**
 * Reads the raw body after authentication (Fastify's own parsing would run before the
 * guards). Stops at the limit: a declared Content-Length over it is refused unread.
 */
export async function readBody(raw: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge(limitBytes);
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of raw as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > limitBytes) throw tooLarge(limitBytes);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // The stream fails ("aborted") when the client goes away or the request times out
    // mid-body: the client's doing, not an internal failure to log and count as a 500.
    throw new ApiError(Failures.incompleteBody);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
}
