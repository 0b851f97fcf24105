import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { closeConnectionsInStages, type DiscardBounds } from '../../src/http/staged-close.js';

const REFUSAL = 'HTTP/1.1 413 Payload Too Large';

/** A Node HTTP server that answers every request 413 with `Connection: close`, its body unread. */
async function refusingServer(bounds: DiscardBounds): Promise<{ port: number; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(413, { connection: 'close', 'content-length': '0' }).end();
  });
  closeConnectionsInStages(server, bounds);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as { port: number }).port, requests, server };
}

interface Exchange {
  /** What the client read. */
  readonly received: string;
  /** Bytes the client handed to its socket before the connection ended. */
  readonly sent: number;
  /** How the client's side failed, if it did (`EPIPE`, `ECONNRESET`: the server reset the connection). */
  readonly failure: string | undefined;
  readonly ms: number;
}

/**
 * Sends `head`, then keeps sending `piece` every `everyMs` (0: as fast as the socket takes it),
 * the server's answer and end of stream notwithstanding, until the connection is gone, or
 * `giveUpMs` passes (then the client stops sending and closes its side, as a client done with
 * its body does).
 */
function sendUntilClosed(
  port: number,
  head: string,
  piece: Buffer,
  everyMs: number,
  giveUpMs: number,
): Promise<Exchange> {
  const started = performance.now();
  return new Promise((resolve) => {
    let received = '';
    let sent = 0;
    let sending = true;
    let failure: string | undefined;
    const socket: Socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => {
      socket.write(head);
      const more = (): void => {
        if (!sending) return;
        sent += piece.length;
        const flowing = socket.write(piece);
        if (everyMs > 0) setTimeout(more, everyMs);
        else if (flowing) setImmediate(more);
        else socket.once('drain', more);
      };
      more();
    });
    const giveUp = setTimeout(() => {
      sending = false;
      socket.end();
    }, giveUpMs);
    socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => (failure ??= error.code));
    socket.on('close', () => {
      sending = false;
      clearTimeout(giveUp);
      resolve({ received, sent, failure, ms: performance.now() - started });
    });
  });
}

const CHUNKED_HEAD = 'POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n';
const chunk = (bytes: number): Buffer => Buffer.from(`${bytes.toString(16)}\r\n${'a'.repeat(bytes)}\r\n`);

describe('closing a connection in stages after an answer given over an unread body', () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((server) => server.close()));
  const start = async (bounds: DiscardBounds) => {
    const started = await refusingServer(bounds);
    servers.push(started.server);
    return started;
  };

  it('reads what the client still sends until it is done, so the client reads its answer', async () => {
    const { port } = await start({ maxBytes: 1024 * 1024 * 1024, maxMs: 60_000 });
    // The client sends for half a second after the answer, then closes its side: the server
    // ends the connection then, without a reset, and long before its time bound.
    const exchange = await sendUntilClosed(port, CHUNKED_HEAD, chunk(64 * 1024), 0, 500);
    expect(exchange.received.startsWith(REFUSAL)).toBe(true);
    expect(exchange.failure).toBeUndefined();
    expect(exchange.sent).toBeGreaterThan(1024 * 1024);
    expect(exchange.ms).toBeLessThan(30_000);
  });

  it('stops reading past the byte bound, however fast the client sends', async () => {
    const { port } = await start({ maxBytes: 256 * 1024, maxMs: 60_000 });
    // The client would send for 60 s; the server ends it well before its time bound.
    const exchange = await sendUntilClosed(port, CHUNKED_HEAD, chunk(64 * 1024), 0, 60_000);
    expect(exchange.ms).toBeLessThan(30_000);
    // Cut short while the client was still sending: a reset, which is what a bound costs.
    expect(exchange.failure).toMatch(/^(ECONNRESET|EPIPE)$/);
  });

  it('stops reading at the time bound, however slowly the client sends; the client has its answer', async () => {
    const { port } = await start({ maxBytes: 64 * 1024 * 1024, maxMs: 500 });
    const exchange = await sendUntilClosed(port, CHUNKED_HEAD, chunk(16), 20, 60_000);
    expect(exchange.received.startsWith(REFUSAL)).toBe(true);
    expect(exchange.ms).toBeGreaterThanOrEqual(500);
    expect(exchange.ms).toBeLessThan(30_000);
  });

  it('serves no request that follows on the connection once it said close', async () => {
    const { port, requests } = await start({ maxBytes: 64 * 1024 * 1024, maxMs: 60_000 });
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let received = '';
    socket.setEncoding('latin1').on('data', (text: string) => (received += text));
    socket.on('error', () => undefined);
    const closed = once(socket, 'close');
    // Half the body, then, once the refusal is in, the rest and a second request behind it.
    socket.write('POST /first HTTP/1.1\r\nHost: x\r\nContent-Length: 8\r\n\r\nhalf');
    while (!received.includes('\r\n\r\n')) await once(socket, 'data');
    socket.end('-way' + 'GET /second HTTP/1.1\r\nHost: x\r\n\r\n');
    await closed;
    expect(requests).toEqual(['POST /first']);
    expect(received.match(/HTTP\/1\.1 /g)).toEqual(['HTTP/1.1 ']);
  });
});
