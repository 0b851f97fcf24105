import {
  PlantStoreApiError,
  PlantStoreDeadlineError,
  PlantStoreGoneError,
  PlantStoreInputError,
  PlantStorePreconditionFailedError,
  PlantStoreUnexpectedResponseError,
} from '../src/index.js';
import {
  apiError,
  connectionRefused,
  headersOf,
  json,
  noContent,
  ok,
  scripted,
  times,
  TEST_TOKEN,
} from './support/scripted-fetch.js';

/** Changing and deleting plants (PUT and DELETE /plants/{id}, with If-Match), against a scripted fetch. */

const v1 = '"3f2a-v1"';
const v2 = '"9c41-v2"';
const plantUrl = 'https://plants.example/api/plants/9007199254740993';

describe('updatePlant', () => {
  it('is PUT {baseUrl}/plants/{id} with the new name and tag and If-Match, answering the plant and its new ETag', async () => {
    const { client, sent } = scripted([json(200, { name: 'Ficus lyrata', tag: 'indoor' }, { etag: v2 })]);
    const saved = await client.updatePlant(9007199254740993n, { name: 'Ficus lyrata', tag: 'indoor' }, { ifMatch: v1 });
    expect(saved).toEqual({ plant: { name: 'Ficus lyrata', tag: 'indoor' }, etag: v2 });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(plantUrl);
    expect(sent[0]!.init.method).toBe('PUT');
    expect(sent[0]!.init.body).toBe('{"name":"Ficus lyrata","tag":"indoor"}');
    const headers = headersOf(sent[0]!);
    expect(headers.get('if-match')).toBe(v1);
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('authorization')).toBe(`Bearer ${TEST_TOKEN}`);
  });

  it('without a tag sends none (the plant loses its tag), and without ifMatch sends no If-Match', async () => {
    const { client, sent } = scripted([ok('Ficus', { etag: v2 })]);
    expect(await client.updatePlant('9007199254740993', { name: 'Ficus' })).toEqual({
      plant: { name: 'Ficus' },
      etag: v2,
    });
    expect(sent[0]!.init.body).toBe('{"name":"Ficus"}');
    expect(headersOf(sent[0]!).has('if-match')).toBe(false);
  });

  it('412 is a PlantStorePreconditionFailedError, an API error with code 41201, answered at once', async () => {
    const { client, sent, waits } = scripted([
      apiError(412, 41201, 'The plant 7 has changed since that ETag: read it again.'),
      ok('Fern', { etag: v2 }),
    ]);
    const error = await client.updatePlant(7n, { name: 'Fern' }, { ifMatch: v1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlantStorePreconditionFailedError);
    expect(error).toBeInstanceOf(PlantStoreApiError);
    expect(error).toMatchObject({
      status: 412,
      code: 41201,
      message: 'The plant 7 has changed since that ETag: read it again.',
    });
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('410 is a PlantStoreGoneError (code 41001); 404 stays a plain API error (40402)', async () => {
    const { client } = scripted([apiError(410, 41001, 'The plant 7 was deleted.'), apiError(404, 40402)]);
    const gone = await client.updatePlant(7n, { name: 'Fern' }).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(PlantStoreGoneError);
    expect(gone).toMatchObject({ status: 410, code: 41001 });
    const never = await client.updatePlant(7n, { name: 'Fern' }).catch((e: unknown) => e);
    expect(never).toMatchObject({ status: 404, code: 40402 });
    expect(never).not.toBeInstanceOf(PlantStoreGoneError);
    expect(never).not.toBeInstanceOf(PlantStorePreconditionFailedError);
  });

  it('is retried like a create, the same body and If-Match every time, until it is answered', async () => {
    const { client, sent } = scripted([connectionRefused, apiError(503, 50301), ok('Fern', { etag: v2 })]);
    expect(await client.updatePlant(7n, { name: 'Fern' }, { ifMatch: v1 })).toEqual({
      plant: { name: 'Fern' },
      etag: v2,
    });
    expect(sent).toHaveLength(3);
    expect(
      new Set(sent.map((s) => `${s.init.method} ${s.url} ${s.init.body as string} ${headersOf(s).get('if-match')}`))
        .size,
    ).toBe(1);
  });

  it('with no answer until the deadline, ends with a PlantStoreDeadlineError', async () => {
    const { client, clock } = scripted(times(100, connectionRefused));
    await expect(client.updatePlant(7n, { name: 'Fern' }, { deadline: clock.now + 3_000 })).rejects.toBeInstanceOf(
      PlantStoreDeadlineError,
    );
  });

  it("a 200 without an ETag is not the API's answer", async () => {
    const { client } = scripted([ok('Fern')]);
    await expect(client.updatePlant(7n, { name: 'Fern' })).rejects.toBeInstanceOf(PlantStoreUnexpectedResponseError);
  });

  it.each([
    ['a strong ETag', v1],
    ['a weak ETag (it matches nothing: the server answers 412)', 'W/"3f2a"'],
    ['several ETags', `${v1}, ${v2}`],
    ['any version', '*'],
  ])('ifMatch may be %s', async (_, ifMatch) => {
    const { client, sent } = scripted([ok('Fern', { etag: v2 })]);
    await client.updatePlant(7n, { name: 'Fern' }, { ifMatch });
    expect(headersOf(sent[0]!).get('if-match')).toBe(ifMatch);
  });

  it.each([
    ['an ETag without its quotes', '3f2a-v1'],
    ['an empty string', ''],
    ['a header injection', `${v1}\r\nx-admin: 1`],
    ['a number', 7],
  ])('ifMatch that is %s is a PlantStoreInputError, before any request', async (_, ifMatch) => {
    const { client, sent } = scripted([]);
    const calls = [
      client.updatePlant(7n, { name: 'Fern' }, { ifMatch: ifMatch as string }),
      client.deletePlant(7n, { ifMatch: ifMatch as string }),
    ];
    for (const call of calls) await expect(call).rejects.toThrow(/ifMatch is an ETag/);
    expect(sent).toHaveLength(0);
  });

  it.each([
    ['no change at all', undefined],
    ['a name that is not a string', { name: ['Fern'] }],
    ['a tag that is not a string', { name: 'Fern', tag: 7 }],
  ])('a change with %s is a PlantStoreInputError, before any request', async (_, change) => {
    const { client, sent } = scripted([]);
    await expect(client.updatePlant(7n, change as never)).rejects.toBeInstanceOf(PlantStoreInputError);
    expect(sent).toHaveLength(0);
  });
});

describe('deletePlant', () => {
  it('is DELETE {baseUrl}/plants/{id} without a body, with If-Match when given, resolving on 204', async () => {
    const { client, sent } = scripted([noContent]);
    await expect(client.deletePlant(9007199254740993n, { ifMatch: v1 })).resolves.toBeUndefined();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(plantUrl);
    expect(sent[0]!.init.method).toBe('DELETE');
    expect(sent[0]!.init.body).toBeUndefined();
    expect(headersOf(sent[0]!).get('if-match')).toBe(v1);
    expect(headersOf(sent[0]!).get('content-type')).toBeNull();
  });

  it('a delete whose answer was lost is sent again, and the 204 of the repeat (already deleted) ends it', async () => {
    const { client, sent } = scripted([connectionRefused, noContent]);
    await client.deletePlant(7n);
    expect(sent.map((s) => s.init.method)).toEqual(['DELETE', 'DELETE']);
  });

  it('412 is a PlantStorePreconditionFailedError and 404 an API error 40402, each at once', async () => {
    const { client, sent } = scripted([apiError(412, 41201), apiError(404, 40402)]);
    await expect(client.deletePlant(7n, { ifMatch: v1 })).rejects.toBeInstanceOf(PlantStorePreconditionFailedError);
    await expect(client.deletePlant(8n)).rejects.toMatchObject({ status: 404, code: 40402 });
    expect(sent).toHaveLength(2);
  });

  it("a 200 is not the API's answer to a delete", async () => {
    const { client } = scripted([ok()]);
    await expect(client.deletePlant(7n)).rejects.toBeInstanceOf(PlantStoreUnexpectedResponseError);
  });
});

describe('getPlant of a deleted plant', () => {
  it('is a PlantStoreGoneError (410, 41001), answered at once', async () => {
    const { client, sent } = scripted([apiError(410, 41001, 'The plant 7 was deleted.')]);
    const error = await client.getPlant(7n).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlantStoreGoneError);
    expect(error).toBeInstanceOf(PlantStoreApiError);
    expect(error).toMatchObject({ status: 410, code: 41001, message: 'The plant 7 was deleted.' });
    expect(sent).toHaveLength(1);
  });
});
