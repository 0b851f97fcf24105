import { connect, type Socket } from 'node:net';
import { useTestApp } from '../support/test-app.js';
import { expectErrorContract } from './support/contract.js';
import { exchange, postBytes, type Exchange, type Step } from '../support/raw-exchange.js';

/**
 * Hostile clients against the running app (docs/http-api.md, docs/operations.md): each attack
 * gets a 4xx Error body or a closed connection within a bounded time, and a normal create
 * still works right after it.
 */
const REQUEST_TIMEOUT_MS = 1_500;
const BODY_LIMIT = 4_096;
/** Longest any refused exchange may take: the request timeout, Node's 1 s check interval, slack. */
const BOUND_MS = REQUEST_TIMEOUT_MS + 1_000 + 5_000;

describe('hostile HTTP clients', () => {
  const t = useTestApp({
    REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    BODY_LIMIT_BYTES: String(BODY_LIMIT),
    AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
  });
  let nextId = 1;

  const auth = () => `Bearer ${t.token}`;

  /** A plain create on a fresh connection: 200 and stored. */
  async function expectNormalCreateWorks(): Promise<void> {
    const id = nextId++;
    const result = await exchange(
      t.url,
      postBytes(`{"id": ${id}, "name": "after attack ${id}"}`, {
        authorization: auth(),
        contentType: 'application/json',
      }),
      {
        deadlineMs: 10_000,
        stopAfterResponses: 1,
      },
    );
    expect(result.responses.map((r) => [r.status, r.text])).toEqual([[200, `{"name":"after attack ${id}"}`]]);
    expect((await t.plants()).some((p) => p.id === String(id))).toBe(true);
  }

  /** Every response is a 4xx Error body, and the exchange ended (refused or closed), not ran into the bound. */
  function expectRefusedOrClosed(result: Exchange, allowed: readonly number[]): void {
    expect(result.ending).not.toBe('deadline');
    for (const response of result.responses) {
      const code = expectErrorContract(response);
      expect(allowed).toContain(code);
    }
  }

  /** An authorised create of plant `id` with `flood` as extra headers, on a fresh connection. */
  const sendFloodedCreate = (id: number, flood: ReadonlyArray<readonly [string, string]>) =>
    exchange(
      t.url,
      postBytes(`{"id": ${id}, "name": "flooded"}`, {
        authorization: auth(),
        contentType: 'application/json',
        extraHeaders: flood,
      }),
      { deadlineMs: BOUND_MS },
    );

  const storedIds = async () => new Set((await t.plants()).map((p) => p.id));

  describe('header floods', () => {
    it('600 extra headers within the 16 KiB header limit: served normally', async () => {
      const flood = Array.from({ length: 600 }, (_, i) => [`X-Flood-${i}`, 'v'] as const);
      const id = nextId++;
      const result = await sendFloodedCreate(id, flood);
      expect(result.responses.map((r) => r.status)).toEqual([200]);
      await expectNormalCreateWorks();
    });

    // Node's parser counts each header line whole (6 bytes for `a: b`), so these pass the limit.
    it('8 000 one-letter headers: over the 16 KiB limit, 431/43101', async () => {
      const flood = Array.from({ length: 8_000 }, () => ['a', 'b'] as const);
      const id = nextId++;
      const result = await sendFloodedCreate(id, flood);
      expectRefusedOrClosed(result, [43101]);
      expect((await storedIds()).has(String(id))).toBe(false);
      await expectNormalCreateWorks();
    });

    it.each([
      ['3 000 headers of 16 bytes', Array.from({ length: 3_000 }, (_, i) => [`X-Flood-${i}`, 'value'] as const)],
      ['20 000 one-letter headers', Array.from({ length: 20_000 }, () => ['a', 'b'] as const)],
      ['one 64 KiB header', [['X-Big', 'x'.repeat(65_536)] as const]],
    ])('%s over the header limit: 431/43101 or closed, nothing stored', async (_case, flood) => {
      const id = nextId++;
      const result = await sendFloodedCreate(id, flood);
      expectRefusedOrClosed(result, [43101]);
      expect((await storedIds()).has(String(id))).toBe(false);
      await expectNormalCreateWorks();
    });
  });

  describe('very long Authorization headers', () => {
    it('15 KB: 401/40102 without echoing it', async () => {
      const credential = `pst_${'A'.repeat(15_000)}`;
      const result = await exchange(
        t.url,
        postBytes('{"id": 1, "name": "x"}', { authorization: `Bearer ${credential}`, contentType: 'application/json' }),
        { deadlineMs: BOUND_MS },
      );
      expect(result.responses.map((r) => r.status)).toEqual([401]);
      expect(expectErrorContract(result.responses[0]!)).toBe(40102);
      expect(result.responses[0]!.text).not.toContain('AAAAAAAA');
      await expectNormalCreateWorks();
    });

    it('20 KB: 431/43101 or closed', async () => {
      const result = await exchange(
        t.url,
        postBytes('{"id": 1, "name": "x"}', {
          authorization: `Bearer pst_${'A'.repeat(20_000)}`,
          contentType: 'application/json',
        }),
        {
          deadlineMs: BOUND_MS,
        },
      );
      expectRefusedOrClosed(result, [43101]);
      await expectNormalCreateWorks();
    });
  });

  describe('slow clients', () => {
    it('a body arriving byte by byte slower than REQUEST_TIMEOUT_MS: 408/40801 or closed, and others are served meanwhile', async () => {
      const id = nextId++;
      const bodyText = `{"id": ${id}, "name": "slow"}`;
      const head = postBytes('', {
        authorization: auth(),
        contentType: 'application/json',
        contentLength: bodyText.length,
      });
      const steps: Step[] = [head];
      for (const byte of bodyText) steps.push({ pauseMs: 150 }, byte); // ≈ 3.5 s for the whole body
      const slow = exchange(t.url, steps, { deadlineMs: BOUND_MS });
      await expectNormalCreateWorks(); // while the slow request is still trickling in
      const result = await slow;
      expectRefusedOrClosed(result, [40801]);
      expect(result.responses.length).toBeLessThanOrEqual(1);
      expect((await storedIds()).has(String(id))).toBe(false);
      await expectNormalCreateWorks();
    });

    it('headers arriving byte by byte (slowloris): 408/40801 or closed', async () => {
      const head = postBytes('{"id": 1, "name": "x"}', {
        authorization: auth(),
        contentType: 'application/json',
      }).toString('latin1');
      const steps: Step[] = [];
      for (const char of head.slice(0, 60)) steps.push(char, { pauseMs: 100 });
      const result = await exchange(t.url, steps, { deadlineMs: BOUND_MS });
      expectRefusedOrClosed(result, [40801]);
      await expectNormalCreateWorks();
    });

    it('100 idle connections that never send a byte do not stop a create, and are closed in bounded time', async () => {
      const sockets: Socket[] = [];
      const closed: Array<Promise<string>> = [];
      for (let i = 0; i < 100; i++) {
        const socket = connect(Number(new URL(t.url).port), '127.0.0.1');
        sockets.push(socket);
        closed.push(
          new Promise((resolve) => {
            const data: Buffer[] = [];
            socket.on('data', (d: Buffer) => data.push(d));
            socket.on('error', () => undefined);
            socket.on('close', () => resolve(Buffer.concat(data).toString('latin1')));
          }),
        );
      }
      try {
        await expectNormalCreateWorks();
        const bound = new Promise<'bound'>((r) => setTimeout(() => r('bound'), 3 * BOUND_MS).unref());
        const outcome = await Promise.race([Promise.all(closed), bound]);
        expect(outcome).not.toBe('bound');
        // Whatever an idle socket was told before closing is empty or the 408 Error body.
        for (const text of outcome as string[]) expect(text === '' || /^HTTP\/1\.1 408 /.test(text)).toBe(true);
      } finally {
        for (const socket of sockets) socket.destroy();
      }
      await expectNormalCreateWorks();
    }, 60_000);
  });

  describe('lying Content-Length', () => {
    it('larger than what is sent: 408/40801 or closed, nothing stored', async () => {
      const id = nextId++;
      const bodyText = `{"id": ${id}, "name": "short"}`;
      const result = await exchange(
        t.url,
        postBytes(bodyText, {
          authorization: auth(),
          contentType: 'application/json',
          contentLength: bodyText.length + 100,
        }),
        {
          deadlineMs: BOUND_MS,
        },
      );
      expectRefusedOrClosed(result, [40801]);
      expect((await storedIds()).has(String(id))).toBe(false);
      await expectNormalCreateWorks();
    });

    it('smaller than what is sent: the rest is a malformed next request (40000) and the connection closes', async () => {
      const id = nextId++;
      const bodyText = `{"id": ${id}, "name": "long enough to be cut"}`;
      const result = await exchange(
        t.url,
        postBytes(bodyText, { authorization: auth(), contentType: 'application/json', contentLength: 12 }),
        {
          deadlineMs: BOUND_MS,
        },
      );
      // The declared 12 bytes are an incomplete JSON body: that request was accepted, so its own
      // answer (40001) comes first. It asked for Connection: close, so the connection then closes
      // and the rest is never served (RFC 9112 §9.6); at most a 40000 for it follows.
      expectRefusedOrClosed(result, [40001, 40000]);
      expect(result.ending).not.toBe('kept-open');
      expect(result.responses.map((r) => expectErrorContract(r))[0]).toBe(40001);
      expect((await storedIds()).has(String(id))).toBe(false);
      await expectNormalCreateWorks();
    });

    it('smaller than what is sent, the rest a complete request without a token: that one is refused on its own (401)', async () => {
      const id = nextId++;
      const smuggled = postBytes(`{"id": ${id}, "name": "smuggled"}`, { contentType: 'application/json' }).toString(
        'latin1',
      );
      const first = `{"id": ${nextId++}}`;
      const bytes = postBytes(first + smuggled, {
        authorization: auth(),
        contentType: 'application/json',
        contentLength: first.length,
        keepAlive: true,
      });
      const result = await exchange(t.url, bytes, { deadlineMs: BOUND_MS, stopAfterResponses: 2 });
      expect(result.responses.map((r) => [r.status, expectErrorContract(r)])).toEqual([
        [400, 40003],
        [401, 40101],
      ]);
      expect((await storedIds()).has(String(id))).toBe(false);
      await expectNormalCreateWorks();
    });
  });

  describe('repeated Content-Type headers', () => {
    it.each([
      [['application/json', 'text/plain']],
      [['text/plain', 'application/json']],
      [['application/json', 'application/json']],
      [['application/json', 'application/json; charset=latin1']],
    ])('%j: 415/41501, nothing stored', async (types) => {
      const id = nextId++;
      const result = await exchange(
        t.url,
        postBytes(`{"id": ${id}, "name": "two types"}`, { authorization: auth(), contentType: types }),
        { deadlineMs: BOUND_MS },
      );
      expect(result.responses.map((r) => [r.status, expectErrorContract(r)])).toEqual([[415, 41501]]);
      expect((await storedIds()).has(String(id))).toBe(false);
      await expectNormalCreateWorks();
    });
  });

  describe('chunked bodies over the limit', () => {
    const chunked = (chunks: readonly string[]) =>
      chunks.map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join('') + '0\r\n\r\n';

    it('many small chunks adding up past the limit: 413/41301 and the connection closes', async () => {
      const id = nextId++;
      const bodyText = `{"id": ${id}, "name": "${'x'.repeat(BODY_LIMIT)}"}`;
      const pieces = bodyText.match(/[\s\S]{1,100}/g)!;
      const head = postBytes('', {
        authorization: auth(),
        contentType: 'application/json',
        contentLength: null,
        extraHeaders: [['Transfer-Encoding', 'chunked']],
      });
      const result = await exchange(t.url, [head, chunked(pieces)], { deadlineMs: BOUND_MS });
      expectRefusedOrClosed(result, [41301]);
      expect(result.responses.map((r) => r.status)).toEqual([413]);
      expect(result.ending).not.toBe('kept-open');
      expect((await storedIds()).has(String(id))).toBe(false);
      await expectNormalCreateWorks();
    });

    it('an endless chunked stream: 413/41301 or closed, without reading it all', async () => {
      const head = postBytes('', {
        authorization: auth(),
        contentType: 'application/json',
        contentLength: null,
        extraHeaders: [['Transfer-Encoding', 'chunked']],
      });
      const steps: Step[] = [head];
      for (let i = 0; i < 200; i++) steps.push(chunked(['y'.repeat(1_024)]).replace(/0\r\n\r\n$/, ''), { pauseMs: 5 });
      const result = await exchange(t.url, steps, { deadlineMs: BOUND_MS });
      expectRefusedOrClosed(result, [41301]);
      await expectNormalCreateWorks();
    });

    it('one chunk declaring 4 GiB: 413/41301 or closed', async () => {
      const head = postBytes('', {
        authorization: auth(),
        contentType: 'application/json',
        contentLength: null,
        extraHeaders: [['Transfer-Encoding', 'chunked']],
      });
      const result = await exchange(t.url, [head, 'FFFFFFFF\r\n', 'z'.repeat(BODY_LIMIT * 2)], {
        deadlineMs: BOUND_MS,
      });
      expectRefusedOrClosed(result, [41301]);
      await expectNormalCreateWorks();
    });
  });

  describe('protocol edge cases Node answers itself', () => {
    it('an HTTP/1.1 request without Host: 400 with the Error body (40000), or closed', async () => {
      const bytes = postBytes(`{"id": ${nextId++}, "name": "no host"}`, {
        authorization: auth(),
        contentType: 'application/json',
      })
        .toString('latin1')
        .replace('Host: 127.0.0.1\r\n', '');
      const result = await exchange(t.url, bytes, { deadlineMs: BOUND_MS });
      expectRefusedOrClosed(result, [40000]);
      await expectNormalCreateWorks();
    });

    it('an Expect other than 100-continue: a 4xx Error body, or the request served as usual', async () => {
      const id = nextId++;
      const result = await exchange(
        t.url,
        postBytes(`{"id": ${id}, "name": "expectant"}`, {
          authorization: auth(),
          contentType: 'application/json',
          extraHeaders: [['Expect', 'the-unexpected']],
        }),
        {
          deadlineMs: BOUND_MS,
          stopAfterResponses: 1,
        },
      );
      expect(result.responses).toHaveLength(1);
      if (result.responses[0]!.status !== 200) expectErrorContract(result.responses[0]!);
      await expectNormalCreateWorks();
    });

    it('CONNECT: 405/40501 with an empty Allow (no proxy here), then the connection closes', async () => {
      const result = await exchange(t.url, 'CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n', {
        deadlineMs: BOUND_MS,
      });
      expect(result.ending).toBe('closed');
      expect(result.responses.map((r) => [r.status, expectErrorContract(r), r.headers['allow']])).toEqual([
        [405, 40501, ''],
      ]);
      await expectNormalCreateWorks();
    });

    it.each(['HTTP/2.0', 'HTTP/0.9'])(
      'GET /healthz %s on an HTTP/1 connection: 505/50501, then the connection closes',
      async (version) => {
        const result = await exchange(t.url, `GET /healthz ${version}\r\nHost: 127.0.0.1\r\n\r\n`, {
          deadlineMs: BOUND_MS,
        });
        expect(result.ending).toBe('closed');
        expect(result.responses.map((r) => [r.status, expectErrorContract(r)])).toEqual([[505, 50501]]);
        await expectNormalCreateWorks();
      },
    );
  });

  describe('client misbehaviour is not a server failure', () => {
    /** Log lines at error level or above written since `from`. */
    const serverFailuresSince = (from: number) =>
      t.logs.lines.slice(from).filter((line) => {
        const level = (JSON.parse(line) as { level?: unknown }).level;
        return level === 'error' || level === 'fatal';
      });

    it('a client that times out or vanishes halfway through its body is not logged as an error', async () => {
      const from = t.logs.lines.length;
      const bodyText = `{"id": ${nextId++}, "name": "never finished"}`;
      const head = postBytes('', {
        authorization: auth(),
        contentType: 'application/json',
        contentLength: bodyText.length,
      });
      // Times out: the server answers 408 and drops the request.
      await exchange(t.url, [head, bodyText.slice(0, 10)], { deadlineMs: BOUND_MS });
      // Vanishes: the client closes the connection with half a body sent.
      await exchange(t.url, [head, bodyText.slice(0, 10), { pauseMs: 200 }], { deadlineMs: 400 });
      await expectNormalCreateWorks();
      await new Promise((r) => setTimeout(r, 200));
      expect(serverFailuresSince(from)).toEqual([]);
    });
  });

  it('50 pipelined requests on one connection are each answered in order, none with a 5xx', async () => {
    const first = nextId;
    nextId += 50;
    const requests = Array.from({ length: 50 }, (_, i) =>
      i % 5 === 4
        ? postBytes('{"id": ', { authorization: auth(), contentType: 'application/json', keepAlive: true })
        : postBytes(`{"id": ${first + i}, "name": "pipelined ${i}"}`, {
            authorization: auth(),
            contentType: 'application/json',
            keepAlive: true,
          }),
    );
    const result = await exchange(t.url, Buffer.concat(requests), { deadlineMs: BOUND_MS, stopAfterResponses: 50 });
    expect(result.responses.map((r) => r.status)).toEqual(
      Array.from({ length: 50 }, (_, i) => (i % 5 === 4 ? 400 : 200)),
    );
    result.responses.forEach((r, i) =>
      i % 5 === 4
        ? expect(expectErrorContract(r)).toBe(40001)
        : expect(JSON.parse(r.text)).toEqual({ name: `pipelined ${i}` }),
    );
    await expectNormalCreateWorks();
  });
});
