import { once } from 'node:events';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errorReply } from '../errors/error-reply.js';
import { Failures, type Failure } from '../errors/failures.js';
import { closeInStages } from './staged-close.js';

/**
 * Requests the HTTP parser rejects never reach Fastify or Nest; they still get the Error
 * body (40000 malformed, 40801 too slow, 43101 headers too large), then the socket closes in
 * stages (staged-close.ts).
 *
 * The requests that arrived on the same connection before the bad bytes were accepted and
 * are being served (a create may be waiting for its commit): their responses go out first, in
 * order, and only then the 400 and the close. Answering at once would drop a 200 for a plant
 * that was stored, and tell the client "malformed" about a create that succeeded.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  if (pendingResponse(socket) === undefined) return answer(socket, error);
  void afterPendingResponses(socket).then(() => answer(socket, error));
}

function answer(socket: Socket, error: Error & { code?: string }): void {
  // A response that ended the connection (the client asked for close) leaves nothing to answer.
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // The rest of the request (a body behind headers too large, say) may still be on its way.
  socket.write(rawErrorResponse(failureOf(error)));
  closeInStages(socket);
}

/**
 * A CONNECT request (a tunnel, which only a proxy opens) never reaches Fastify: Node hands it
 * to the server's `connect` listeners, and closes the socket without a word when there is
 * none. It gets 405/40501 and the connection closes (whatever follows would be tunnel bytes).
 */
export function refuseConnect(_request: unknown, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // Node has stopped reading for the tunnel: the staged close reads (and discards) what follows.
  socket.write(rawErrorResponse(Failures.connectNotAllowed));
  closeInStages(socket);
}

/**
 * The response Node has attached to the socket (the oldest request not yet answered), when its
 * request arrived whole. A request still incomplete is the one the error is about (a broken
 * body, a request timeout): it will never complete, so it is not waited for.
 */
function pendingResponse(socket: Socket): ServerResponse | undefined {
  const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  return response && !response.writableFinished && response.req.complete ? response : undefined;
}

/**
 * Waits until every response queued on the socket has been written. Node attaches the next
 * queued response to the socket when the previous one finishes, so this waits for them one by
 * one; it gives up when the socket closes (a shutdown cutting connections, a client leaving).
 */
async function afterPendingResponses(socket: Socket): Promise<void> {
  for (let response = pendingResponse(socket); response !== undefined; response = pendingResponse(socket)) {
    const closed = once(socket, 'close').then(() => 'closed' as const);
    if ((await Promise.race([once(response, 'finish').then(() => 'finished' as const), closed])) === 'closed') return;
    // Node's own 'finish' listener attaches the next queued response; let it run first.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function failureOf(error: Error & { code?: string }): Failure {
  return error.code === 'HPE_HEADER_OVERFLOW'
    ? Failures.headersTooLarge
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? Failures.requestTimeout
      : Failures.malformedRequest;
}

function rawErrorResponse(failure: Failure): string {
  const { status, headers, payload } = errorReply(failure, { closeConnection: true });
  const head = {
    'content-type': headers['content-type'],
    'content-length': String(Buffer.byteLength(payload)),
    ...headers,
  };
  const lines = Object.entries(head).map(([name, value]) => `${headerCase(name)}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('')}\r\n${payload}`;
}

/** `content-type` → `Content-Type`, as Node writes header names. */
function headerCase(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}
