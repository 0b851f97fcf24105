import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode, statusOf, type ErrorBody } from '../errors/error-codes.js';

/**
 * Requests the HTTP parser rejects never reach Fastify or Nest; they still get the Error
 * body (40000 malformed, 40801 too slow, 43101 headers too large), then the socket closes.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const body: ErrorBody =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? { error: ErrorCode.HeadersTooLarge, message: 'The request headers are too large.' }
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? { error: ErrorCode.RequestTimeout, message: 'The request took too long to arrive; send it again.' }
        : { error: ErrorCode.MalformedRequest, message: 'The HTTP request is malformed.' };
  const status = statusOf(body.error);
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(json)}\r\n` +
      'Connection: close\r\n\r\n' +
      json,
  );
}
