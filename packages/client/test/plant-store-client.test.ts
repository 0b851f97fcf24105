import {
  PlantStoreApiError,
  PlantStoreClient,
  PlantStoreError,
  PlantStoreGoneError,
  PlantStoreInputError,
  PlantStoreUnexpectedResponseError,
  type PlantStoreClientOptions,
} from '../src/index.js';
import {
  apiError,
  connectionRefused,
  headersOf,
  json,
  ok,
  scripted,
  TEST_TOKEN,
  text,
} from './support/scripted-fetch.js';

/** Creating, reading and listing plants, and what the client refuses, against a scripted fetch. */

const etag = { etag: '"5f0c-monstera"' };

describe('createPlant', () => {
  it('is POST {baseUrl}/plants with the bearer token and a JSON body whose id keeps every digit', async () => {
    const { client, sent } = scripted([json(200, { name: 'Fern', tag: 'fern' })]);
    const plant = await client.createPlant({ id: 9223372036854775807n, name: 'Fern', tag: 'fern' });
    expect(plant).toEqual({ name: 'Fern', tag: 'fern' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('https://plants.example/api/plants');
    expect(sent[0]!.init.method).toBe('POST');
    expect(headersOf(sent[0]!).get('authorization')).toBe(`Bearer ${TEST_TOKEN}`);
    expect(headersOf(sent[0]!).get('content-type')).toBe('application/json');
    expect(sent[0]!.init.body).toBe('{"id":9223372036854775807,"name":"Fern","tag":"fern"}');
  });

  it('takes the id as a decimal string, above 2^53 too, and omits an absent tag', async () => {
    const { client, sent } = scripted([ok()]);
    expect(await client.createPlant({ id: '9007199254740993', name: 'Fern "the green"' })).toEqual({ name: 'Fern' });
    expect(sent[0]!.init.body).toBe('{"id":9007199254740993,"name":"Fern \\"the green\\""}');
  });

  it('accepts both ends of the int64 range', async () => {
    const { client, sent } = scripted([ok(), ok()]);
    await client.createPlant({ id: '-9223372036854775808', name: 'Fern' });
    await client.createPlant({ id: 9223372036854775807n, name: 'Fern' });
    expect(sent.map((s) => s.init.body)).toEqual([
      '{"id":-9223372036854775808,"name":"Fern"}',
      '{"id":9223372036854775807,"name":"Fern"}',
    ]);
  });

  it("a create of a deleted plant's id is refused with 409 40902, at once", async () => {
    const { client, sent } = scripted([apiError(409, 40902, 'The id 7 belonged to a plant that was deleted.')]);
    await expect(client.createPlant({ id: 7n, name: 'Fern' })).rejects.toMatchObject({ status: 409, code: 40902 });
    expect(sent).toHaveLength(1);
  });
});

describe('what the client refuses before sending anything: a PlantStoreInputError', () => {
  it.each([
    // The point of the case: this literal has already lost its last digit.
    // eslint-disable-next-line no-loss-of-precision
    ['a JS number, which would have lost digits already', 9007199254740993, /bigint or a decimal string/],
    ['a string that is not a decimal integer', '1e3', /decimal integer/],
    ['a string with a leading zero', '012', /without leading zeros/],
    ['a fraction', '1.5', /decimal integer/],
    ['null', null, /got null/],
    ['a value above int64', 9223372036854775808n, /int64.*got 9223372036854775808/],
    ['a string below int64', '-9223372036854775809', /int64/],
  ])('an id that is %s, for every call taking an id', async (_, id, message) => {
    const { client, sent } = scripted([]);
    const plantId = id as bigint;
    const calls = [
      client.createPlant({ id: plantId, name: 'Fern' }),
      client.getPlant(plantId),
      client.updatePlant(plantId, { name: 'Fern' }),
      client.deletePlant(plantId),
    ];
    for (const call of calls) {
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PlantStoreInputError);
      expect(error).toBeInstanceOf(PlantStoreError);
      expect((error as Error).message).toMatch(message);
    }
    expect(sent).toHaveLength(0);
  });

  it('a number id is refused by the types as well as at run time', async () => {
    const { client, sent } = scripted([ok()]);
    // @ts-expect-error the id type is bigint | string
    await expect(client.createPlant({ id: 7, name: 'Fern' })).rejects.toBeInstanceOf(PlantStoreInputError);
    expect(sent).toHaveLength(0);
  });

  it.each([
    ['no plant at all', undefined, /an object/],
    ['a name that is not a string', { id: 7n, name: 7 }, /name is a string/],
    ['a bigint name, which JSON cannot write', { id: 7n, name: 7n }, /name is a string \(got bigint 7\)/],
    ['a null tag', { id: 7n, name: 'Fern', tag: null }, /tag is a string, or absent/],
  ])('a new plant with %s', async (_, plant, message) => {
    const { client, sent } = scripted([]);
    await expect(client.createPlant(plant as never)).rejects.toThrow(message);
    await expect(client.createPlant(plant as never)).rejects.toBeInstanceOf(PlantStoreInputError);
    expect(sent).toHaveLength(0);
  });

  it.each([
    ['0', { limit: 0 }],
    ['1001', { limit: 1001 }],
    ['a fraction', { limit: 2.5 }],
    ['tags that are not strings', { tags: [7] }],
    ['a name that is not a string', { name: 7 }],
  ])('a list query with a limit, tags or name of %s', async (_, query) => {
    const { client, sent } = scripted([]);
    await expect(client.listPlants(query as never).next()).rejects.toBeInstanceOf(PlantStoreInputError);
    await expect(client.listPlantPages(query as never).next()).rejects.toBeInstanceOf(PlantStoreInputError);
    expect(sent).toHaveLength(0);
  });

  it.each([
    ['a deadline that is not a time', { deadline: Number.NaN }],
    ['an invalid Date', { deadline: new Date('tomorrow') }],
    ['a deadline given as text', { deadline: '2026-12-01' }],
  ])('%s', async (_, call) => {
    const { client, sent } = scripted([]);
    await expect(client.getPlant(7n, call as never)).rejects.toThrow(/deadline is a Date or epoch milliseconds/);
    expect(sent).toHaveLength(0);
  });

  const valid: PlantStoreClientOptions = { baseUrl: 'https://plants.example', token: `pst_abc-_123${'z'.repeat(35)}` };
  it.each([
    ['a base URL that is not a URL', { baseUrl: 'plants.example' }, /baseUrl is an absolute URL/],
    ['a base URL that is not http(s)', { baseUrl: 'ftp://plants.example' }, /http: or https:/],
    ['a base URL with a password in it', { baseUrl: 'https://me:secret@plants.example' }, /user name or password/],
    ['an empty token', { token: '' }, /token is empty/],
    ['a token that cannot be a header', { token: 'pst_a\r\nx-injected: 1' }, /not an API token/],
    ['a token without the pst_ prefix', { token: 'A'.repeat(47) }, /not an API token: `pst_` and 43/],
    ['a token cut short', { token: `pst_${'A'.repeat(42)}` }, /not an API token/],
    ['a token one character too long', { token: `pst_${'A'.repeat(44)}` }, /not an API token/],
    ['a token in base64 rather than base64url', { token: `pst_${'A'.repeat(42)}+` }, /not an API token/],
    ['a token with its scheme', { token: `Bearer pst_${'A'.repeat(43)}` }, /not an API token/],
    [
      'the retry count 1.0.0 took',
      { retry: { maxAttempts: 3 } },
      /retry.maxAttempts was removed in 2.0.0: a call retries until its deadline; give the call a `deadline`, or the client `defaultDeadlineMs`/,
    ],
    ['the Retry-After cap 1.0.0 took', { retry: { maxRetryAfterMs: 1_000 } }, /retry.maxRetryAfterMs was removed/],
    [
      'a misspelt option',
      { defaultDeadline: 5_000 },
      /defaultDeadline is not an option of the client \(it takes baseUrl, token, retry,/,
    ],
    [
      'a misspelt retry option',
      { retry: { baseDelay: 10 } },
      /retry.baseDelay is not an option of the client \(it takes retry.baseDelayMs, retry.maxDelayMs\)/,
    ],
    ['retry that is not an object', { retry: 5 }, /retry is an object/],
    ['a negative attempt timeout', { attemptTimeoutMs: -1 }, /attemptTimeoutMs/],
    ['a default deadline of no time', { defaultDeadlineMs: 0 }, /defaultDeadlineMs/],
    ['an endless default deadline', { defaultDeadlineMs: Number.POSITIVE_INFINITY }, /defaultDeadlineMs/],
    ['a backoff that is not a number', { retry: { baseDelayMs: Number.NaN } }, /retry.baseDelayMs/],
  ])('a client made with %s', (_, options, message) => {
    // As JavaScript would call it: options the types refuse are what this checks.
    const make = () => new PlantStoreClient({ ...valid, ...options } as PlantStoreClientOptions);
    expect(make).toThrow(PlantStoreInputError);
    expect(make).toThrow(message);
  });

  it('a client made with a valid token and base URL (a path, a query to drop) sends to {base}/plants', async () => {
    const { client, sent } = scripted([ok()], { baseUrl: 'https://plants.example/api/v1?debug=1' });
    await client.createPlant({ id: 1n, name: 'Fern' });
    expect(sent[0]!.url).toBe('https://plants.example/api/v1/plants');
  });
});

describe('errors', () => {
  it('an Error body becomes a PlantStoreApiError with status, code and message', async () => {
    const { client } = scripted([apiError(409, 40901, 'plant 7 already exists with a different name or tag')]);
    const error = await client.createPlant({ id: 7n, name: 'Fern' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlantStoreApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 40901,
      message: 'plant 7 already exists with a different name or tag',
      retryAfter: undefined,
    });
  });

  it('an answer without the Error body (a proxy page) is a PlantStoreUnexpectedResponseError', async () => {
    const { client } = scripted([() => new Response('<html>Bad Gateway</html>', { status: 502 })]);
    const error = await client.createPlant({ id: 7n, name: 'Fern' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlantStoreUnexpectedResponseError);
    expect(error).toMatchObject({ status: 502, body: '<html>Bad Gateway</html>' });
  });

  it('a 200 that is not a Plant is a PlantStoreUnexpectedResponseError, not a success', async () => {
    const { client } = scripted([json(200, { nom: 'Fern' })]);
    await expect(client.createPlant({ id: 7n, name: 'Fern' })).rejects.toBeInstanceOf(
      PlantStoreUnexpectedResponseError,
    );
  });

  it("an answer of another success status, or a 2xx with an Error body, is not the API's answer", async () => {
    const { client } = scripted([json(201, { name: 'Fern' }), apiError(202, 20201)]);
    await expect(client.createPlant({ id: 7n, name: 'Fern' })).rejects.toMatchObject({ status: 201 });
    await expect(client.createPlant({ id: 7n, name: 'Fern' })).rejects.toBeInstanceOf(
      PlantStoreUnexpectedResponseError,
    );
  });
});

describe('retries', () => {
  it.each([
    [400, 40003],
    [401, 40102],
    [403, 40301],
    [404, 40401],
    [409, 40901],
    [413, 41301],
    [415, 41501],
    [500, 50001],
  ])('%i is answered at once: one attempt, no wait', async (status, code) => {
    const { client, sent, waits } = scripted([apiError(status, code), ok()]);
    await expect(client.createPlant({ id: 7n, name: 'Fern' })).rejects.toMatchObject({ status, code });
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('network failures, 503, 429 and 408 are retried with jittered, doubling waits until the plant is there', async () => {
    const { client, sent, waits } = scripted([
      connectionRefused,
      apiError(503, 50301),
      apiError(429, 42901),
      apiError(408, 40801),
      ok(),
    ]);
    expect(await client.createPlant({ id: 7n, name: 'Fern' })).toEqual({ name: 'Fern' });
    expect(sent).toHaveLength(5);
    expect(new Set(sent.map((s) => s.init.body)).size).toBe(1); // the same create every time
    expect(waits).toEqual([50, 100, 200, 400]); // random 0.5 × 100, 200, 400, 800
  });

  it('waits as long as Retry-After says (seconds or HTTP-date) when that is longer than the backoff', async () => {
    const { client, waits, clock } = scripted([
      apiError(503, 50301, 'shutting down', { 'retry-after': '2' }),
      (init) => apiError(429, 42901, 'slow down', { 'retry-after': new Date(clock.now + 5_000).toUTCString() })(init),
      ok(),
    ]);
    await client.createPlant({ id: 7n, name: 'Fern' });
    expect(waits).toEqual([2_000, 5_000]);
  });

  it('an attempt that gets no answer in attemptTimeoutMs is abandoned and retried', async () => {
    const hang = (init: RequestInit) =>
      new Promise<Response>((_, reject) =>
        init.signal!.addEventListener('abort', () => reject(init.signal!.reason as Error)),
      );
    const { client, sent } = scripted([hang, ok()], { attemptTimeoutMs: 20 });
    expect(await client.createPlant({ id: 7n, name: 'Fern' })).toEqual({ name: 'Fern' });
    expect(sent).toHaveLength(2);
  });
});

describe('AbortSignal', () => {
  it('an aborted signal ends the call with its reason before any request', async () => {
    const { client, sent } = scripted([ok()]);
    const reason = new Error('user left the page');
    await expect(client.createPlant({ id: 7n, name: 'Fern' }, { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
    expect(sent).toHaveLength(0);
  });

  it('aborting during an attempt ends the call with the reason, without another attempt', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    const abortMidRequest = (init: RequestInit) =>
      new Promise<Response>((_, reject) => {
        init.signal!.addEventListener('abort', () => reject(init.signal!.reason as Error));
        controller.abort(reason);
      });
    const { client, sent } = scripted([abortMidRequest, ok()]);
    await expect(client.createPlant({ id: 7n, name: 'Fern' }, { signal: controller.signal })).rejects.toBe(reason);
    expect(sent).toHaveLength(1);
  });

  it('aborting during a wait between attempts ends the call there', async () => {
    const controller = new AbortController();
    const { client, sent } = scripted([connectionRefused, ok()], {
      sleep: async (_ms, signal) => {
        controller.abort(new Error('cancelled'));
        signal?.throwIfAborted();
      },
    });
    await expect(client.createPlant({ id: 7n, name: 'Fern' }, { signal: controller.signal })).rejects.toThrow(
      'cancelled',
    );
    expect(sent).toHaveLength(1);
  });
});

describe('getPlant', () => {
  it('is GET {baseUrl}/plants/{id} with the id in canonical form and no body, answering the Plant and its ETag', async () => {
    const { client, sent } = scripted([ok('Monstera', etag), ok('Fern', etag), ok('Aloe', { etag: 'W/"weak"' })]);
    expect(await client.getPlant(9223372036854775807n)).toEqual({ plant: { name: 'Monstera' }, etag: etag.etag });
    await client.getPlant('-0');
    expect(await client.getPlant('-9007199254740993')).toEqual({ plant: { name: 'Aloe' }, etag: 'W/"weak"' });
    expect(sent.map((s) => [s.init.method, s.url])).toEqual([
      ['GET', 'https://plants.example/api/plants/9223372036854775807'],
      ['GET', 'https://plants.example/api/plants/0'],
      ['GET', 'https://plants.example/api/plants/-9007199254740993'],
    ]);
    expect(sent[0]!.init.body).toBeUndefined();
    expect(headersOf(sent[0]!).get('authorization')).toBe(`Bearer ${TEST_TOKEN}`);
    expect(headersOf(sent[0]!).get('content-type')).toBeNull();
  });

  it.each([
    [
      'no ETag',
      {},
      /no ETag header: the API sends one with every 200 Plant, and the client refuses an answer without it/,
    ],
    ['an ETag without quotes', { etag: 'abc' }, /the ETag header is not an entity tag: abc/],
  ])('a 200 with %s is a PlantStoreUnexpectedResponseError saying why', async (_, headers, message) => {
    const { client } = scripted([ok('Fern', headers), ok('Fern', headers)]);
    for (const call of [() => client.getPlant(5n), () => client.updatePlant(5n, { name: 'Fern' })]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PlantStoreUnexpectedResponseError);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('rejects 404 as a PlantStoreApiError with code 40402, without retrying', async () => {
    const { client, sent } = scripted([apiError(404, 40402, 'There is no plant with id 5.')]);
    const error = await client.getPlant(5n).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, code: 40402 });
    expect(error).not.toBeInstanceOf(PlantStoreGoneError);
    expect(sent).toHaveLength(1);
  });

  it('retries a 503 like a create', async () => {
    const { client, sent } = scripted([apiError(503, 50301), ok('Fern', etag)]);
    expect(await client.getPlant(5n)).toEqual({ plant: { name: 'Fern' }, etag: etag.etag });
    expect(sent).toHaveLength(2);
  });
});

describe('listPlants', () => {
  it('follows Link rel="next" until a page has none, yielding every plant with its exact bigint id', async () => {
    const { client, sent } = scripted([
      text(200, '[{"id":-9223372036854775808,"name":"min"},{"id":9007199254740993,"name":"odd","tag":"big"}]', {
        link: '</plants?tags=big&tags=small&limit=2&after=9007199254740993>; rel="next"',
      }),
      text(200, '[{"id":9223372036854775807,"name":"max , {\\"id\\":1}"}]'),
    ]);
    const plants = [];
    for await (const plant of client.listPlants({ tags: ['big', 'small'], limit: 2 })) plants.push(plant);
    expect(plants).toEqual([
      { id: -9223372036854775808n, name: 'min' },
      { id: 9007199254740993n, name: 'odd', tag: 'big' },
      { id: 9223372036854775807n, name: 'max , {"id":1}' },
    ]);
    // The next page's query is applied to the client's own base path (a proxy's /api prefix stays).
    expect(sent.map((s) => [s.init.method, s.url])).toEqual([
      ['GET', 'https://plants.example/api/plants?tags=big&tags=small&limit=2'],
      ['GET', 'https://plants.example/api/plants?tags=big&tags=small&limit=2&after=9007199254740993'],
    ]);
  });

  it('asks for plants by name, the text encoded once, and follows the next link that keeps it', async () => {
    const { client, sent } = scripted([
      text(200, '[{"id":3,"name":"Fougère & co"}]', {
        link: '</plants?tags=fern&name=foug%C3%A8re%20%26%20co&limit=1&after=3>; rel="next"',
      }),
      text(200, '[]'),
    ]);
    const plants = [];
    for await (const plant of client.listPlants({ tags: ['fern'], name: 'fougère & co', limit: 1 })) plants.push(plant);
    expect(plants).toEqual([{ id: 3n, name: 'Fougère & co' }]);
    expect(sent.map((s) => new URL(s.url).searchParams.getAll('name'))).toEqual([['fougère & co'], ['fougère & co']]);
    expect(sent[0]!.url).toBe('https://plants.example/api/plants?tags=fern&name=foug%C3%A8re+%26+co&limit=1');
  });

  it('gives the pages too, the last one empty after a full page', async () => {
    const { client } = scripted([
      text(200, '[{"id":1,"name":"a"}]', { link: '</plants?limit=1&after=1>; rel="next"' }),
      text(200, '[]'),
    ]);
    const pages = [];
    for await (const page of client.listPlantPages({ limit: 1 })) pages.push(page);
    expect(pages).toEqual([[{ id: 1n, name: 'a' }], []]);
  });

  it('gives each page the feed cursor the server took before reading it, none when it sent none or not a cursor', async () => {
    const { client } = scripted([
      text(200, '[{"id":1,"name":"a"}]', {
        link: '</plants?limit=1&after=1>; rel="next"',
        'feed-cursor': '1.0.3.2.lwelsp',
      }),
      text(200, '[{"id":2,"name":"b"}]', { link: '</plants?limit=1&after=2>; rel="next"', 'feed-cursor': 'a b' }),
      text(200, '[]'),
    ]);
    const cursors = [];
    for await (const page of client.listPlantPages({ limit: 1 })) cursors.push(page.feedCursor);
    expect(cursors).toEqual(['1.0.3.2.lwelsp', undefined, undefined]);
  });

  it('stops with the error of a failed page, after the plants of the pages before', async () => {
    const { client } = scripted([
      text(200, '[{"id":1,"name":"a"}]', { link: '</plants?limit=1&after=1>; rel="next"' }),
      apiError(400, 40004, 'The request parameters are invalid: after must be …'),
    ]);
    const seen: bigint[] = [];
    const error = await (async () => {
      for await (const plant of client.listPlants({ limit: 1 })) seen.push(plant.id);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([1n]);
    expect(error).toMatchObject({ status: 400, code: 40004 });
  });

  it.each([
    ['not a list', '{"name":"not a list"}', /not a list of plants/],
    [
      'an id past int64',
      '[{"id":1,"name":"a"},{"id":9223372036854775808,"name":"b"}]',
      /item 1: its id 9223372036854775808 \(as the server sent it\) is not an int64/,
    ],
    [
      'an id in exponent notation',
      '[{"id":1e2,"name":"a"}]',
      /item 0: its id 1e2 \(as the server sent it\) is not an int64/,
    ],
    ['an id with a fraction', '[{"id":7.0,"name":"a"}]', /item 0: its id 7.0 \(as the server sent it\)/],
    ['an id below int64', '[{"id":-9223372036854775809,"name":"a"}]', /item 0: its id -9223372036854775809/],
    ['an id with a leading zero', '[{"id":-01,"name":"a"}]', /item 0: its id/],
    ['an id written as a string', '[{"id":"7","name":"a"}]', /item 0: its id/],
    ['an item without a name', '[{"id":7}]', /item 0 is not a plant/],
  ])(
    'a 200 that is %s is a PlantStoreUnexpectedResponseError, and nothing of that page is yielded',
    async (_, body, message) => {
      const { client } = scripted([text(200, body)]);
      const seen: bigint[] = [];
      const error = await (async () => {
        for await (const plant of client.listPlants()) seen.push(plant.id);
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PlantStoreUnexpectedResponseError);
      expect((error as Error).message).toMatch(message);
      expect(seen).toEqual([]);
    },
  );
});
