import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorContract } from './support/contract.js';
import { exchange, postBytes } from '../support/raw-exchange.js';

/**
 * A valid create followed at once, on the same keep-alive connection, by bytes the HTTP
 * parser rejects: the create was accepted and is stored, so its 200 must reach the client,
 * before the 400 for what followed and the close.
 */
const MALFORMED_FOLLOWERS: ReadonlyArray<readonly [string, string]> = [
  ['a garbage line', 'THIS IS NOT HTTP\r\n\r\n'],
  ['a NUL byte in a header', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n'],
  [
    'Content-Length and Transfer-Encoding together',
    'POST /plants HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  ],
  ['an obs-fold header line', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n  continued\r\n\r\n'],
];

describe('a malformed request pipelined after a valid create', () => {
  let t: TestApp;
  let token: string;
  let nextId = 1;

  beforeAll(async () => {
    t = await startTestApp({ AUTH_FAILURE_LIMIT_PER_MINUTE: '0' });
    ({ token } = await t.issueToken());
  });
  afterAll(() => t?.close());

  it.each(MALFORMED_FOLLOWERS)(
    'answers the create with 200, then %s with 400, in order, and stores the plant',
    async (_kind, follower) => {
      for (let round = 0; round < 5; round++) {
        const id = nextId++;
        const create = postBytes(`{"id": ${id}, "name": "pipelined ${id}"}`, {
          authorization: `Bearer ${token}`,
          contentType: 'application/json',
          keepAlive: true,
        });
        const result = await exchange(t.url, Buffer.concat([create, Buffer.from(follower, 'latin1')]), {
          deadlineMs: 10_000,
        });
        expect(result.ending).toBe('closed');
        expect(result.responses.map((r) => r.status)).toEqual([200, 400]);
        expect(result.responses[0]!.text).toBe(`{"name":"pipelined ${id}"}`);
        expect(expectErrorContract(result.responses[1]!)).toBe(40000);
        expect((await t.plants()).some((p) => p.id === String(id))).toBe(true);
      }
    },
  );
});
