import { InMemoryPlantRepository } from '@plantstore/domain/testing';
import { startHttpTestApp, type HttpTestApp } from '../support/http-test-app.js';

// PUT and DELETE /plants/{id} through the adapter alone, on the in-memory store: each outcome of
// the use cases to its answer, and the order of the checks.
describe('PUT and DELETE /plants/{id}', () => {
  const store = new InMemoryPlantRepository();
  let t: HttpTestApp;
  let writer: string;

  beforeAll(async () => {
    t = await startHttpTestApp({ plants: store });
    writer = await t.token(['plants:write', 'plants:read']);
  });
  afterAll(() => t.app.close());

  const send = (method: 'PUT' | 'DELETE' | 'POST' | 'GET', url: string, body?: string, headers = {}) =>
    t.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${writer}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: body }),
    });
  const create = async (id: number, name = 'Fern') => {
    expect((await send('POST', '/plants', `{"id": ${id}, "name": "${name}"}`)).statusCode).toBe(200);
    return (await send('GET', `/plants/${id}`)).headers['etag'] as string;
  };

  it('answers a change with the plant and its ETag, the one a read then gives', async () => {
    await create(1);
    const res = await send('PUT', '/plants/1', '{"name": "Boston fern", "tag": "shade"}');
    expect([res.statusCode, res.body]).toEqual([200, '{"name":"Boston fern","tag":"shade"}']);
    expect(res.headers['etag']).toBe((await send('GET', '/plants/1')).headers['etag']);
  });

  it.each([
    ['PUT', '/plants/404', '{"name": "x"}', 404, 40402],
    ['DELETE', '/plants/404', undefined, 404, 40402],
  ] as const)('answers %s of an id never created with %i %i', async (method, url, body, status, code) => {
    const res = await send(method, url, body);
    expect([res.statusCode, res.json<{ error: number }>().error]).toEqual([status, code]);
  });

  it('deletes with 204 and no body, then answers the plant as deleted (410) and its id as retired (409 40902)', async () => {
    await create(2);
    const removed = await send('DELETE', '/plants/2');
    expect([removed.statusCode, removed.body]).toEqual([204, '']);
    expect((await send('DELETE', '/plants/2')).statusCode).toBe(204);
    expect((await send('GET', '/plants/2')).json()).toEqual({
      error: 41001,
      message: 'The plant with id 2 was deleted.',
    });
    expect((await send('PUT', '/plants/2', '{"name": "x"}')).json<{ error: number }>().error).toBe(41001);
    expect((await send('POST', '/plants', '{"id": 2, "name": "Fern"}')).json<{ error: number }>().error).toBe(40902);
  });

  it('answers a stale If-Match with 412 41201 on PUT and DELETE, and changes nothing', async () => {
    const etag = await create(3);
    await send('PUT', '/plants/3', '{"name": "moved on"}');
    for (const res of [
      await send('PUT', '/plants/3', '{"name": "mine"}', { 'if-match': etag }),
      await send('DELETE', '/plants/3', undefined, { 'if-match': etag }),
    ]) {
      expect([res.statusCode, res.json<{ error: number }>().error]).toEqual([412, 41201]);
    }
    expect(store.stored('3')).toMatchObject({ version: 2 });
  });

  it('checks the path id before the body: a bad id and a bad body answer 40004', async () => {
    const res = await send('PUT', '/plants/1e2', 'not json', { 'content-type': 'text/plain' });
    expect([res.statusCode, res.json<{ error: number }>().error]).toEqual([400, 40004]);
  });

  it('reads no body for a token that may not write: 403 before the body is looked at', async () => {
    const reader = await t.token(['plants:read']);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/plants/1',
      headers: { authorization: `Bearer ${reader}`, 'content-type': 'text/plain' },
      payload: 'not json',
    });
    expect([res.statusCode, res.json<{ error: number }>().error]).toEqual([403, 40301]);
  });

  it('counts each change and deletion by outcome on /metrics', async () => {
    await create(4);
    await send('PUT', '/plants/4', '{"name": "Fern"}');
    await send('DELETE', '/plants/4');
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/plantstore_plant_changes_total\{operation="replace",outcome="unchanged"\} [1-9]/);
    expect(metrics).toMatch(/plantstore_plant_changes_total\{operation="remove",outcome="removed"\} [1-9]/);
  });
});
