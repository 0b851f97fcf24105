import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { clientErrorHandler } from '../../src/http/client-error-handler.js';

/**
 * What a client reads back when the handler answers a socket the HTTP parser gave up on, and
 * whether the connection then ended. A real connection: the handler writes, then closes in stages.
 */
async function answerTo(
  code: string | undefined,
  options: { writable?: boolean } = {},
): Promise<{ written: string; ended: boolean }> {
  const server = createServer((socket) => {
    if (options.writable === false) socket.end();
    clientErrorHandler(Object.assign(new Error('parse error'), code === undefined ? {} : { code }), socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const client: Socket = connect(port, '127.0.0.1');
  // A destroyed connection may reach the client as a reset: it ends the exchange all the same.
  client.on('error', () => undefined);
  let written = '';
  client.setEncoding('latin1').on('data', (chunk: string) => (written += chunk));
  const [ended] = await Promise.race([
    once(client, 'close').then(() => [true] as const),
    new Promise<readonly [boolean]>((resolve) => setTimeout(() => resolve([false]), 5_000)),
  ]);
  client.destroy();
  server.close();
  return { written, ended };
}

describe('the Error body on a raw socket (requests the HTTP parser refuses)', () => {
  it.each([
    [
      'HPE_HEADER_OVERFLOW',
      '431 Request Header Fields Too Large',
      '{"error":43101,"message":"The request headers are too large."}',
    ],
    [
      'ERR_HTTP_REQUEST_TIMEOUT',
      '408 Request Timeout',
      '{"error":40801,"message":"The request took too long to arrive; send it again."}',
    ],
    ['HPE_INVALID_METHOD', '400 Bad Request', '{"error":40000,"message":"The HTTP request is malformed."}'],
  ])('%s: a complete HTTP/1.1 answer that closes the connection', async (code, statusLine, body) => {
    expect(await answerTo(code)).toEqual({
      written:
        `HTTP/1.1 ${statusLine}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
      ended: true,
    });
  });

  it('writes nothing to a client that reset the connection or can no longer be written to', async () => {
    expect(await answerTo('ECONNRESET')).toEqual({ written: '', ended: true });
    expect(await answerTo('HPE_INVALID_METHOD', { writable: false })).toEqual({ written: '', ended: true });
  });
});
