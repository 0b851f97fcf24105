import {
  PlantStoreApiError,
  PlantStoreClient,
  PlantStoreDeadlineError,
  PlantStoreNetworkError,
  PlantStoreUnexpectedResponseError,
  type PlantStoreClientOptions,
} from '../src/index.js';

/**
 * The client against a scripted fetch: each call takes the next step of the script. Waits
 * are recorded, never slept, and the clock and jitter are set by the test.
 */
type Step = (init: RequestInit) => Response | Promise<Response>;

interface Sent {
  readonly url: string;
  readonly init: RequestInit;
}

function scripted(steps: Step[], overrides: Partial<PlantStoreClientOptions> = {}) {
  const sent: Sent[] = [];
  const waits: number[] = [];
  const clock = { now: 1_000_000 };
  const client = new PlantStoreClient({
    baseUrl: 'https://plants.example/api',
    token: 'pst_test',
    retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1_000 },
    fetch: async (url, init) => {
      sent.push({ url: url.href, init });
      const step = steps[sent.length - 1];
      if (step === undefined) throw new Error(`unexpected attempt ${sent.length}`);
      return step(init);
    },
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      waits.push(ms);
      clock.now += ms;
    },
    random: () => 0.5,
    now: () => clock.now,
    ...overrides,
  });
  return { client, sent, waits, clock };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    });
const ok = (name = 'Fern') => json(200, { name });
const apiError = (status: number, code: number, message = `failure ${code}`, headers: Record<string, string> = {}) =>
  json(status, { error: code, message }, headers);
const connectionRefused = () => Promise.reject(new TypeError('fetch failed'));

describe('the request', () => {
  it('is POST {baseUrl}/plants with the bearer token and a JSON body whose id keeps every digit', async () => {
    const { client, sent } = scripted([json(200, { name: 'Fern', tag: 'fern' })]);
    const plant = await client.createPlant({ id: 9223372036854775807n, name: 'Fern', tag: 'fern' });
    expect(plant).toEqual({ name: 'Fern', tag: 'fern' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('https://plants.example/api/plants');
    expect(sent[0]!.init.method).toBe('POST');
    expect(sent[0]!.init.headers).toMatchObject({
      authorization: 'Bearer pst_test',
      'content-type': 'application/json',
    });
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
    await client.createPlant({ id: -9223372036854775808n, name: 'Fern' });
    expect(sent.map((s) => s.init.body)).toEqual([
      '{"id":-9223372036854775808,"name":"Fern"}',
      '{"id":-9223372036854775808,"name":"Fern"}',
    ]);
  });

  it.each([
    // The point of the case: this literal has already lost its last digit.
    // eslint-disable-next-line no-loss-of-precision
    ['a JS number, which would have lost digits already', 9007199254740993, TypeError],
    ['a string that is not a decimal integer', '1e3', TypeError],
    ['a string with a leading zero', '012', TypeError],
    ['a fraction', '1.5', TypeError],
    ['a value above int64', 9223372036854775808n, RangeError],
    ['a string below int64', '-9223372036854775809', RangeError],
  ])('refuses %s before sending anything', async (_, id, errorType) => {
    const { client, sent } = scripted([ok()]);
    await expect(client.createPlant({ id: id as bigint, name: 'Fern' })).rejects.toBeInstanceOf(errorType);
    expect(sent).toHaveLength(0);
  });
});

it('a number id is refused by the types as well as at run time', async () => {
  const { client, sent } = scripted([ok()]);
  // @ts-expect-error the id type is bigint | string
  await expect(client.createPlant({ id: 7, name: 'Fern' })).rejects.toBeInstanceOf(TypeError);
  expect(sent).toHaveLength(0);
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

  it('carries Retry-After in seconds when the server gave one and retries ran out', async () => {
    const limited = apiError(429, 42901, 'rate limit exceeded', { 'retry-after': '3' });
    const { client, sent } = scripted([limited, limited, limited, limited]);
    await expect(client.createPlant({ id: 7n, name: 'Fern' })).rejects.toMatchObject({
      status: 429,
      code: 42901,
      retryAfter: 3,
    });
    expect(sent).toHaveLength(4);
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
});

describe('retries', () => {
  it.each([
    [400, 40003],
    [401, 40102],
    [403, 40301],
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

  it('network failures, 503 and 429 are retried with jittered, doubling waits until the plant is there', async () => {
    const { client, sent, waits } = scripted([connectionRefused, apiError(503, 50301), apiError(429, 42901), ok()]);
    expect(await client.createPlant({ id: 7n, name: 'Fern' })).toEqual({ name: 'Fern' });
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((s) => s.init.body)).size).toBe(1); // the same create every time
    expect(waits).toEqual([50, 100, 200]); // random 0.5 × 100, 200, 400
  });

  it('waits as long as Retry-After says (seconds or HTTP-date) when that is longer than the backoff', async () => {
    const { client, waits, clock } = scripted([
      apiError(503, 50301, 'shutting down', { 'retry-after': '2' }),
      () => apiError(429, 42901, 'slow down', { 'retry-after': new Date(clock.now + 5_000).toUTCString() })(),
      ok(),
    ]);
    await client.createPlant({ id: 7n, name: 'Fern' });
    expect(waits).toEqual([2_000, 5_000]);
  });

  it('after maxAttempts network failures, rejects with a PlantStoreNetworkError whose cause is the last failure', async () => {
    const { client, sent } = scripted([connectionRefused, connectionRefused, connectionRefused, connectionRefused]);
    const error = await client.createPlant({ id: 7n, name: 'Fern' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlantStoreNetworkError);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(sent).toHaveLength(4);
  });

  it('an attempt that gets no answer in attemptTimeoutMs is abandoned and retried', async () => {
    const hang: Step = (init) =>
      new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason as Error)));
    const { client, sent } = scripted([hang, ok()], { attemptTimeoutMs: 20 });
    expect(await client.createPlant({ id: 7n, name: 'Fern' })).toEqual({ name: 'Fern' });
    expect(sent).toHaveLength(2);
  });
});

describe('AbortSignal and deadline', () => {
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
    const abortMidRequest: Step = (init) =>
      new Promise((_, reject) => {
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

  it('a deadline already past sends nothing', async () => {
    const { client, sent, clock } = scripted([ok()]);
    await expect(client.createPlant({ id: 7n, name: 'Fern' }, { deadline: clock.now })).rejects.toBeInstanceOf(
      PlantStoreDeadlineError,
    );
    expect(sent).toHaveLength(0);
  });

  it('a wait that would end past the deadline is not started: the call ends with the last failure as cause', async () => {
    const { client, sent, waits, clock } = scripted([
      apiError(503, 50301, 'database unavailable', { 'retry-after': '10' }),
      ok(),
    ]);
    const error = await client
      .createPlant({ id: 7n, name: 'Fern' }, { deadline: new Date(clock.now + 5_000) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlantStoreDeadlineError);
    expect((error as Error).cause).toMatchObject({ status: 503, code: 50301, retryAfter: 10 });
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('within the deadline, retries go on as usual', async () => {
    const { client, sent, clock } = scripted([connectionRefused, ok()]);
    expect(await client.createPlant({ id: 7n, name: 'Fern' }, { deadline: clock.now + 5_000 })).toEqual({
      name: 'Fern',
    });
    expect(sent).toHaveLength(2);
  });
});

const text =
  (status: number, body: string, headers: Record<string, string> = {}) =>
  () =>
    new Response(body, { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });

describe('getPlant', () => {
  it('is GET {baseUrl}/plants/{id} with the id in canonical form and no body, answering the Plant', async () => {
    const { client, sent } = scripted([ok('Monstera'), ok('Fern'), ok('Aloe')]);
    expect(await client.getPlant(9223372036854775807n)).toEqual({ name: 'Monstera' });
    await client.getPlant('-0');
    await client.getPlant('-9007199254740993');
    expect(sent.map((s) => [s.init.method, s.url])).toEqual([
      ['GET', 'https://plants.example/api/plants/9223372036854775807'],
      ['GET', 'https://plants.example/api/plants/0'],
      ['GET', 'https://plants.example/api/plants/-9007199254740993'],
    ]);
    expect(sent[0]!.init.body).toBeUndefined();
    expect(new Headers(sent[0]!.init.headers).get('authorization')).toBe('Bearer pst_test');
    expect(new Headers(sent[0]!.init.headers).get('content-type')).toBeNull();
  });

  it('rejects 404 as a PlantStoreApiError with code 40402, without retrying', async () => {
    const { client, sent } = scripted([apiError(404, 40402, 'There is no plant with id 5.')]);
    await expect(client.getPlant(5n)).rejects.toMatchObject({ status: 404, code: 40402 });
    expect(sent).toHaveLength(1);
  });

  it('retries a 503 like a create', async () => {
    const { client, sent } = scripted([apiError(503, 50301), ok('Fern')]);
    expect(await client.getPlant(5n)).toEqual({ name: 'Fern' });
    expect(sent).toHaveLength(2);
  });

  it('refuses an id that is not an int64 before any request', async () => {
    const { client, sent } = scripted([]);
    await expect(client.getPlant('007')).rejects.toBeInstanceOf(TypeError);
    await expect(client.getPlant(2n ** 63n)).rejects.toBeInstanceOf(RangeError);
    expect(sent).toHaveLength(0);
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

  it('gives the pages too, the last one empty after a full page', async () => {
    const { client } = scripted([
      text(200, '[{"id":1,"name":"a"}]', { link: '</plants?limit=1&after=1>; rel="next"' }),
      text(200, '[]'),
    ]);
    const pages = [];
    for await (const page of client.listPlantPages({ limit: 1 })) pages.push(page);
    expect(pages).toEqual([[{ id: 1n, name: 'a' }], []]);
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

  it('a 200 that is not a list of plants is a PlantStoreUnexpectedResponseError', async () => {
    const { client } = scripted([text(200, '{"name":"not a list"}')]);
    await expect(client.listPlants().next()).rejects.toBeInstanceOf(PlantStoreUnexpectedResponseError);
  });

  it('refuses a limit outside 1 to 1000 before any request', async () => {
    const { client, sent } = scripted([]);
    await expect(client.listPlants({ limit: 0 }).next()).rejects.toBeInstanceOf(RangeError);
    await expect(client.listPlants({ limit: 1001 }).next()).rejects.toBeInstanceOf(RangeError);
    expect(sent).toHaveLength(0);
  });
});
