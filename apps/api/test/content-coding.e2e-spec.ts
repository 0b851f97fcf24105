import { expectErrorContract } from './adversarial/support/contract.js';
import { exchange, postBytes } from './support/raw-exchange.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Codings the server does not implement are refused, not guessed at: a body with a
 * Content-Encoding is 415 (RFC 9110 §8.4), a Transfer-Encoding other than chunked is 501
 * (RFC 9112 §6.1). Either way nothing is stored.
 */
describe('content and transfer codings of a create', () => {
  let t: TestApp;
  let auth: string;
  let nextId = 1;

  beforeAll(async () => {
    t = await startTestApp();
    auth = `Bearer ${(await t.issueToken()).token}`;
  });
  afterAll(() => t?.close());

  async function send(
    extraHeaders: ReadonlyArray<readonly [string, string]>,
    options: { authorization?: string; chunked?: boolean } = {},
  ) {
    const id = nextId++;
    const body = `{"id": ${id}, "name": "coded ${id}"}`;
    const chunked = options.chunked ?? false;
    const wire = chunked ? `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n` : body;
    const request = postBytes(wire, {
      authorization: options.authorization ?? auth,
      contentType: 'application/json',
      extraHeaders,
      ...(chunked ? { contentLength: null } : {}),
    });
    const { responses } = await exchange(t.url, request, { deadlineMs: 10_000 });
    const stored = (await t.plants()).some((p) => p.id === String(id));
    return { response: responses[0]!, stored };
  }

  it.each(['gzip', 'br', 'deflate', 'gzip, identity'])(
    'refuses Content-Encoding: %s with 415/41501 and stores nothing',
    async (coding) => {
      const { response, stored } = await send([['Content-Encoding', coding]]);
      expect(response.status).toBe(415);
      expect(expectErrorContract(response)).toBe(41501);
      expect(JSON.parse(response.text).message).toMatch(
        /Content-Encoding .* is not supported; send the JSON body uncompressed/,
      );
      expect(stored).toBe(false);
    },
  );

  it('accepts Content-Encoding: identity', async () => {
    const { response, stored } = await send([['Content-Encoding', 'identity']]);
    expect(response.status).toBe(200);
    expect(stored).toBe(true);
  });

  it('refuses Transfer-Encoding: gzip, chunked with 501/50101 and stores nothing', async () => {
    const { response, stored } = await send([['Transfer-Encoding', 'gzip, chunked']], { chunked: true });
    expect(response.status).toBe(501);
    expect(expectErrorContract(response)).toBe(50101);
    expect(stored).toBe(false);
  });

  it('accepts a plain chunked body', async () => {
    const { response, stored } = await send([['Transfer-Encoding', 'chunked']], { chunked: true });
    expect(response.status).toBe(200);
    expect(stored).toBe(true);
  });

  it('still authenticates first: no token with a gzip body is 401', async () => {
    const { response } = await send([['Content-Encoding', 'gzip']], { authorization: 'Basic eDp5' });
    expect(response.status).toBe(401);
  });
});
