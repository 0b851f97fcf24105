import { deletePlant, putPlant } from './support/change-requests.js';
import { explainedBySerialOrder, type PlantOperation } from './support/serial-order.js';
import { JSON_UTF8, postPlant } from './support/plant-requests.js';
import { getWithToken, idsIn } from './support/read-requests.js';
import { testEngines } from './support/engines.js';
import { useTestApp } from './support/test-app.js';

const BEYOND_2_53 = '9007199254740993';
const DELETED = (id: string) => ({ error: 41001, message: `The plant with id ${id} was deleted.` });
const NOT_FOUND = (id: string) => ({ error: 40402, message: `There is no plant with id ${id}.` });
const STALE = (id: string) => ({
  error: 41201,
  message: `The plant with id ${id} is no longer the one If-Match names; read it again (its ETag), then decide.`,
});
const RETIRED = (id: string) => ({
  error: 40902,
  message: `The id ${id} belonged to a plant that was deleted, and ids are never used again; choose another id.`,
});

/*
 * PUT and DELETE /plants/{id} (docs/http-api.md#changing-and-deleting-plants) on the real app,
 * once per engine: every answer with its whole body and headers, and what the store holds after.
 */
describe.each(testEngines())('changing and deleting plants ($name)', (engine) => {
  const t = useTestApp({}, engine);
  let nextId = 1000n;
  /** A plant created for one test, under an id of its own. */
  const created = async (body: { name: string; tag?: string } = { name: 'Monstera', tag: 'tropical' }) => {
    const id = String(nextId++);
    const res = await postPlant(t.url, t.token, JSON.stringify({ ...body }).replace('{', `{"id":${id},`));
    if (res.status !== 200) throw new Error(`creating ${id}: ${res.status} ${res.text}`);
    const read = await getWithToken(t.url, t.token, `/plants/${id}`);
    return { id, etag: read.headers['etag'] as string };
  };
  const row = async (id: string) => {
    const [found] = await t.dataSource.query<
      Array<{
        name: string | null;
        tag: string | null;
        version: number;
        deleted_at: unknown;
        deleted_by_token_id: string | null;
      }>
    >(`SELECT name, tag, version, deleted_at, deleted_by_token_id FROM plant WHERE id = ${id}`);
    return found && { ...found, version: Number(found.version), deleted: found.deleted_at !== null };
  };

  describe('PUT /plants/{id}', () => {
    it('replaces name and tag and answers the plant as now stored, with its new ETag, the one GET gives', async () => {
      const { id, etag } = await created();
      const res = await putPlant(t.url, t.token, id, '{"name": "Swiss cheese plant", "tag": "aroid"}');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(res.text).toBe('{"name":"Swiss cheese plant","tag":"aroid"}');
      expect(res.headers['etag']).toMatch(/^"[!#-~]+"$/);
      expect(res.headers['etag']).not.toBe(etag);
      const read = await getWithToken(t.url, t.token, `/plants/${id}`);
      expect([read.text, read.headers['etag']]).toEqual([res.text, res.headers['etag']]);
      expect(await row(id)).toMatchObject({ version: 2 });
    });

    it('removes the tag when the body has none', async () => {
      const { id } = await created();
      const res = await putPlant(t.url, t.token, id, '{"name": "Monstera"}');
      expect([res.status, res.text]).toEqual([200, '{"name":"Monstera"}']);
      expect(await row(id)).toMatchObject({ name: 'Monstera', tag: null });
    });

    it('writes nothing for the content already stored: same answer, same ETag, same version (a safe retry)', async () => {
      const { id, etag } = await created();
      const first = await putPlant(t.url, t.token, id, '{"name": "Monstera", "tag": "tropical"}');
      const again = await putPlant(t.url, t.token, id, '{"name": "Monstera", "tag": "tropical"}');
      expect([first.status, first.headers['etag'], again.status, again.headers['etag']]).toEqual([
        200,
        etag,
        200,
        etag,
      ]);
      expect(await row(id)).toMatchObject({ version: 1 });
    });

    it('keeps an id past 2^53 exact, and allows the body to name the path’s id in any literal', async () => {
      await postPlant(t.url, t.token, `{"id": ${BEYOND_2_53}, "name": "Exact"}`);
      const res = await putPlant(t.url, t.token, BEYOND_2_53, `{"id": 9007199254740993.0, "name": "Still exact"}`);
      expect([res.status, res.text]).toEqual([200, '{"name":"Still exact"}']);
      expect((await getWithToken(t.url, t.token, '/plants/9007199254740992')).status).toBe(404);
    });

    it('refuses a body naming another id, beside every other field problem, and changes nothing', async () => {
      const { id } = await created();
      const res = await putPlant(t.url, t.token, id, '{"id": 7, "name": "", "tag": null}');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 40003,
        message: `The plant is invalid: id must be ${id}, the id in the path, or be left out; name must be 1 to 200 characters long (got 0); tag must be a string if present; omit it for no tag.`,
      });
      expect(await row(id)).toMatchObject({ name: 'Monstera', version: 1 });
    });

    it('never creates: an id never created is 404 40402', async () => {
      const res = await putPlant(t.url, t.token, '424242', '{"name": "Ghost"}');
      expect([res.status, res.body]).toEqual([404, NOT_FOUND('424242')]);
      expect(await row('424242')).toBeUndefined();
    });

    it('answers 410 41001 for a deleted plant, and changes nothing', async () => {
      const { id } = await created();
      await deletePlant(t.url, t.token, id);
      const res = await putPlant(t.url, t.token, id, '{"name": "Back"}');
      expect([res.status, res.body]).toEqual([410, DELETED(id)]);
      expect(await row(id)).toMatchObject({ name: null, deleted: true, version: 2 });
    });

    describe('If-Match', () => {
      it('applies the change while the plant still has the tag named', async () => {
        const { id, etag } = await created();
        const res = await putPlant(t.url, t.token, id, '{"name": "Renamed"}', { 'If-Match': etag });
        expect([res.status, res.text]).toEqual([200, '{"name":"Renamed"}']);
      });

      it('answers 412 41201 when the plant changed since, and changes nothing', async () => {
        const { id, etag } = await created();
        await putPlant(t.url, t.token, id, '{"name": "Changed by someone else"}');
        const res = await putPlant(t.url, t.token, id, '{"name": "Mine"}', { 'If-Match': etag });
        expect([res.status, res.body]).toEqual([412, STALE(id)]);
        expect(await row(id)).toMatchObject({ name: 'Changed by someone else', version: 2 });
      });

      it('answers 200 to a stale tag when the stored content already equals the body (the change holds)', async () => {
        const { id, etag } = await created();
        await putPlant(t.url, t.token, id, '{"name": "Agreed"}');
        const res = await putPlant(t.url, t.token, id, '{"name": "Agreed"}', { 'If-Match': etag });
        expect([res.status, res.text]).toEqual([200, '{"name":"Agreed"}']);
        expect(await row(id)).toMatchObject({ version: 2 });
      });

      it.each([
        ['a weak tag of the current representation', (etag: string) => `W/${etag}`],
        ['a malformed tag', () => 'not-a-tag'],
        ['a list of other tags', () => '"a", "b"'],
      ])('matches nothing with %s: 412', async (_case, header) => {
        const { id, etag } = await created();
        const res = await putPlant(t.url, t.token, id, '{"name": "Mine"}', { 'If-Match': header(etag) });
        expect([res.status, res.body]).toEqual([412, STALE(id)]);
      });

      it('matches any current representation with *, and the current tag anywhere in a list', async () => {
        const { id, etag } = await created();
        expect((await putPlant(t.url, t.token, id, '{"name": "One"}', { 'If-Match': '*' })).status).toBe(200);
        const current = (await getWithToken(t.url, t.token, `/plants/${id}`)).headers['etag'] as string;
        const res = await putPlant(t.url, t.token, id, '{"name": "Two"}', { 'If-Match': `${etag}, ${current}` });
        expect(res.status).toBe(200);
      });

      it('is judged only where the change could succeed: 404 for an id never created, 410 for a deleted one', async () => {
        const { id, etag } = await created();
        await deletePlant(t.url, t.token, id);
        expect((await putPlant(t.url, t.token, id, '{"name": "x"}', { 'If-Match': etag })).status).toBe(410);
        expect((await putPlant(t.url, t.token, '434343', '{"name": "x"}', { 'If-Match': '"x"' })).status).toBe(404);
      });
    });

    it('checks the route, the token and its scope, the path id, then the body, in that order', async () => {
      const { id } = await created();
      const { token: reader } = await t.issueToken({ scopes: ['plants:read'] });
      expect((await putPlant(t.url, undefined, '007', 'not json')).body).toMatchObject({ error: 40101 });
      expect((await putPlant(t.url, reader, '007', 'not json')).body).toMatchObject({ error: 40301 });
      expect((await putPlant(t.url, t.token, '007', 'not json')).body).toMatchObject({ error: 40004 });
      expect((await putPlant(t.url, t.token, id, 'not json')).body).toMatchObject({ error: 40001 });
      const notJson = await putPlant(t.url, t.token, id, '{}', { 'Content-Type': 'text/plain' });
      expect(notJson.body).toMatchObject({ error: 41501 });
    });
  });

  describe('DELETE /plants/{id}', () => {
    it('answers 204 without a body, and retires the id with when and by which token', async () => {
      const { id } = await created();
      const res = await deletePlant(t.url, t.token, id);
      expect([res.status, res.text, res.headers['content-type']]).toEqual([204, '', undefined]);
      const tombstone = await row(id);
      expect(tombstone).toMatchObject({ name: null, tag: null, deleted: true, version: 2 });
      expect(tombstone?.deleted_by_token_id).toEqual(expect.any(String));
    });

    it('answers 204 again for a plant already deleted, whatever If-Match says, and writes nothing', async () => {
      const { id } = await created();
      await deletePlant(t.url, t.token, id);
      expect((await deletePlant(t.url, t.token, id)).status).toBe(204);
      expect((await deletePlant(t.url, t.token, id, { 'If-Match': '"stale"' })).status).toBe(204);
      expect(await row(id)).toMatchObject({ version: 2 });
    });

    it('answers 404 40402 for an id never created', async () => {
      const res = await deletePlant(t.url, t.token, '454545');
      expect([res.status, res.body]).toEqual([404, NOT_FOUND('454545')]);
    });

    it('answers 412 41201 for a live plant that changed since the tag was read, and deletes nothing', async () => {
      const { id, etag } = await created();
      await putPlant(t.url, t.token, id, '{"name": "Changed"}');
      const res = await deletePlant(t.url, t.token, id, { 'If-Match': etag });
      expect([res.status, res.body]).toEqual([412, STALE(id)]);
      expect(await row(id)).toMatchObject({ name: 'Changed', deleted: false });
      const current = (await getWithToken(t.url, t.token, `/plants/${id}`)).headers['etag'] as string;
      expect((await deletePlant(t.url, t.token, id, { 'If-Match': current })).status).toBe(204);
    });

    it('needs plants:write and a canonical id', async () => {
      const { token: reader } = await t.issueToken({ scopes: ['plants:read'] });
      expect((await deletePlant(t.url, reader, '1')).body).toMatchObject({ error: 40301 });
      expect((await deletePlant(t.url, t.token, '+1')).body).toMatchObject({ error: 40004 });
      expect((await deletePlant(t.url, undefined, '1')).status).toBe(401);
    });
  });

  describe('a retired id', () => {
    it('is 410 to GET, in no list, and 409 40902 to every create, the very one that made it included', async () => {
      const { id } = await created({ name: 'Fern', tag: 'retired-test' });
      const live = await created({ name: 'Aloe', tag: 'retired-test' });
      await deletePlant(t.url, t.token, id);
      const read = await getWithToken(t.url, t.token, `/plants/${id}`);
      expect([read.status, read.body]).toEqual([410, DELETED(id)]);
      const list = await getWithToken(t.url, t.token, '/plants?tags=retired-test');
      expect(idsIn(list.text)).toEqual([live.id]);
      for (const body of [`{"id": ${id}, "name": "Fern", "tag": "retired-test"}`, `{"id": ${id}, "name": "Other"}`]) {
        const again = await postPlant(t.url, t.token, body);
        expect([again.status, again.body]).toEqual([409, RETIRED(id)]);
      }
      expect(await row(id)).toMatchObject({ name: null, deleted: true, version: 2 });
    });
  });

  it('answers a method /plants/{id} does not have with 405, its Allow listing GET, HEAD, PUT and DELETE', async () => {
    const res = await getWithToken(t.url, t.token, '/plants/1').then(() =>
      fetch(`${t.url}/plants/1`, { method: 'PATCH' }),
    );
    expect([res.status, res.headers.get('allow')]).toEqual([405, 'GET, HEAD, PUT, DELETE']);
  });

  describe('concurrent writers of one plant', () => {
    it('lets exactly one of 20 PUTs with the same If-Match succeed; the others get 412, none a 5xx', async () => {
      const { id, etag } = await created();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          putPlant(t.url, t.token, id, `{"name": "Writer ${i}"}`, { 'If-Match': etag }),
        ),
      );
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).toEqual([200, ...Array<number>(19).fill(412)]);
      const winner = answers.find((res) => res.status === 200)!;
      expect((await getWithToken(t.url, t.token, `/plants/${id}`)).text).toBe(winner.text);
      expect(await row(id)).toMatchObject({ version: 2 });
    });

    it('ends PUTs, DELETEs and create retries of one id in a state one serial order of them explains', async () => {
      const operations: PlantOperation[] = [
        { kind: 'put', name: 'A' },
        { kind: 'put', name: 'B' },
        { kind: 'put', name: 'Base' },
        { kind: 'delete' },
        { kind: 'create', name: 'Base' },
        { kind: 'create', name: 'Base' },
      ];
      for (let round = 0; round < 10; round++) {
        const { id } = await created({ name: 'Base' });
        const answers = await Promise.all(
          operations.map((operation) =>
            operation.kind === 'put'
              ? putPlant(t.url, t.token, id, `{"name": "${operation.name}"}`)
              : operation.kind === 'delete'
                ? deletePlant(t.url, t.token, id)
                : postPlant(t.url, t.token, `{"id": ${id}, "name": "${operation.name}"}`),
          ),
        );
        const seen = answers.map((res) =>
          res.status === 409 || res.status === 410
            ? `${res.status} ${(res.body as { error: number }).error}`
            : String(res.status),
        );
        const stored = await row(id);
        const final = {
          name: stored?.name ?? undefined,
          deleted: stored?.deleted ?? false,
          version: stored?.version ?? 0,
        };
        const initial = { name: 'Base', deleted: false, version: 1 };
        expect({ seen, final, explained: explainedBySerialOrder(initial, operations, seen, final) }).toEqual({
          seen,
          final,
          explained: true,
        });
      }
    });
  });
});
