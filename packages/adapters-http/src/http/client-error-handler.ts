import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorReply } from '../errors/error-reply.js';
import { Failures } from '../errors/failures.js';

/**
 * Requests the HTTP parser rejects never reach Fastify or Nest; they still get the Error
 * body (40000 malformed, 40801 too slow, 43101 headers too large), then the socket closes.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const failure =
    error.code === 'HPE_HEADER_OVERFLOW' ? Failures.headersTooLarge : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? Failures.requestTimeout : Failures.malformedRequest;
  const { status, headers, payload } = errorReply(failure, { closeConnection: true });
  const head = { 'content-type': headers['content-type'], 'content-length': String(Buffer.byteLength(payload)), ...headers };
  const lines = Object.entries(head).map(([name, value]) => `${headerCase(name)}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('')}\r\n${payload}`);
}

/** `content-type` → `Content-Type`, as Node writes header names. */
function headerCase(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}
