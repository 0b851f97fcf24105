import type { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';

/** How much of what a client still sends after its answer the server reads and throws away, and for how long. */
export interface DiscardBounds {
  readonly maxBytes: number;
  readonly maxMs: number;
}

/**
 * Enough for a client to finish sending a body of several times any sane limit (and so to read
 * its 413), small enough that no client makes the server read for long. docs/operations.md
 * states both.
 */
export const DISCARD_BOUNDS: DiscardBounds = { maxBytes: 32 * 1024 * 1024, maxMs: 5_000 };

/**
 * Every connection the server closes after an answer closes in stages (RFC 9112 §9.6), so that
 * an answer given before the request's body was read (401, 403, 404, 405, 413, 415, 429, 503,
 * a parser error) reaches a client that is still sending it.
 *
 * Closing at once would leave the rest of the body unread in the kernel, which then resets the
 * connection, and a client whose send fails on the reset (Node's fetch does) never reads the
 * answer it was sent. Node closes a connection that answered `Connection: close` through the
 * socket's `destroySoon` ("destroy once written"): each connection gets one that half-closes
 * instead, reads and discards what the client still sends, and destroys the socket when the
 * client closes its side or a bound of `bounds` is reached.
 *
 * Installed once on the server, it serves every answer that closes a connection, whoever gives
 * it (the error filter, load shedding, the draining hook, Node itself): the places that decide
 * to close only say `Connection: close`.
 */
export function closeConnectionsInStages(
  /** The Node HTTP or HTTPS server. */
  server: EventEmitter,
  bounds: DiscardBounds = DISCARD_BOUNDS,
): void {
  // One function for every socket: `this` is the socket Node closes.
  const destroySoon = function (this: Socket): void {
    closeInStages(this, bounds);
  };
  const stageClosing = (socket: Socket): void => {
    socket.destroySoon = destroySoon;
  };
  // HTTPS serves on the TLS socket, which 'secureConnection' hands over; plain HTTP on the TCP one.
  server.on('connection', stageClosing);
  server.on('secureConnection', stageClosing);
}

/**
 * The staged close of one connection, once its last answer is written or queued: our side
 * closes (the client reads the answer, then end of stream), what the client still sends is
 * read and thrown away, and the socket is destroyed when the client closes its side or a bound
 * is reached. Past a bound the connection may still be reset: the bound is what a client gets,
 * not what it can take.
 */
export function closeInStages(socket: Socket, bounds: DiscardBounds = DISCARD_BOUNDS): void {
  if (socket.destroyed) return;
  // Nothing more can come (the client closed its side): close as Node would.
  if (socket.readableEnded) {
    socket.end(() => socket.destroy());
    return;
  }
  let discarded = 0;
  const close = (): void => {
    clearTimeout(deadline);
    socket.destroy();
  };
  const deadline = setTimeout(close, bounds.maxMs);
  const discard = (chunk: Buffer): void => {
    discarded += chunk.length;
    if (discarded > bounds.maxBytes) close();
  };
  // Our listener first: Node's HTTP server, on a `data` listener, takes its parser off the
  // socket's native reads, so the bytes come here. Then its own listener goes, so that nothing
  // after the answer is parsed as a further request: a connection that said close serves no more.
  socket.on('data', discard);
  for (const listener of socket.listeners('data')) if (listener !== discard) socket.off('data', listener as never);
  socket.once('end', close);
  socket.once('close', () => clearTimeout(deadline));
  // A reset from the client ends it too; Node's own error handling may also run, to the same end.
  socket.on('error', close);
  socket.end();
  socket.resume();
}
