import type { Socket } from 'node:net';
import { clientErrorHandler } from '../src/http/client-error-handler.js';

/** What the handler writes on a socket the HTTP parser gave up on, or that it destroyed it. */
function answerTo(code: string | undefined, writable = true): { written: string | undefined; destroyed: boolean } {
  const seen = { written: undefined as string | undefined, destroyed: false };
  const socket = {
    writable,
    end: (text: string) => void (seen.written = text),
    destroy: () => void (seen.destroyed = true),
  };
  clientErrorHandler(
    Object.assign(new Error('parse error'), code === undefined ? {} : { code }),
    socket as unknown as Socket,
  );
  return seen;
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
  ])('%s: a complete HTTP/1.1 answer that closes the connection', (code, statusLine, body) => {
    expect(answerTo(code).written).toBe(
      `HTTP/1.1 ${statusLine}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });

  it('writes nothing to a client that reset the connection or can no longer be written to', () => {
    expect(answerTo('ECONNRESET')).toEqual({ written: undefined, destroyed: true });
    expect(answerTo('HPE_INVALID_METHOD', false)).toEqual({ written: undefined, destroyed: true });
  });
});
